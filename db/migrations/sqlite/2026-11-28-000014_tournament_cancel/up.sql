-- Why a tournament was cancelled: too few entrants at its start, or called off by its maker or
-- an admin (`too_few_entrants`, `by_maker`, `by_admin`), with the words they gave.
ALTER TABLE tournaments ADD COLUMN cancel_cause TEXT;
ALTER TABLE tournaments ADD COLUMN cancel_note TEXT;
