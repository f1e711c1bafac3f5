// The protocol's words, as the wire hands them out: the lists live in the domain
// (server/domain/vocabulary.ts), which imports nothing; the browser and the agent kit
// take them from here. Zod-free, like the lists themselves.
export * from "../domain/vocabulary";
