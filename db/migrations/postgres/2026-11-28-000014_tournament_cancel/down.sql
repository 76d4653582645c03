ALTER TABLE tournaments DROP COLUMN cancel_note;
ALTER TABLE tournaments DROP COLUMN cancel_cause;
