-- A person's files take up at most their quota (core/attachments.ts ATTACHMENT_QUOTA_BYTES): each upload sums
-- the sizes of the files they uploaded, sent or not, on this index rather than over every attachment.
CREATE INDEX attachments_uploader ON attachments (uploader_id);
