-- The webhook claim finds each endpoint with pending deliveries by a seek and reads only its first
-- due rows (server/webhooks/claim-deliveries.ts), instead of ranking every due row.
-- CreateIndex
CREATE INDEX "webhook_delivery_status_endpoint_id_next_attempt_at_idx" ON "webhook_delivery"("status", "endpoint_id", "next_attempt_at");
