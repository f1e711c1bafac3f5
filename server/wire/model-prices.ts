// The list prices, for the agent kit (which prices the usage it reads from a transcript) and the server.
export * from "../domain/usage/model-prices";
