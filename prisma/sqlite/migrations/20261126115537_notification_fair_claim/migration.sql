-- The fair claim of notifications (server/notify/claim-notifications.ts): who has pending rows and
-- each one's oldest, and the rows under way, each found by an index, not a pass over the backlog.
-- CreateIndex
CREATE INDEX "notification_delivery_outcome_user_id_id_idx" ON "notification_delivery"("outcome", "user_id", "id");

-- CreateIndex
CREATE INDEX "notification_delivery_claimed_until_idx" ON "notification_delivery"("claimed_until");
