// An operator's price file, for the agent kit and the server (apart from model-prices.ts: it loads zod).
export * from "../domain/usage/model-price-file";
