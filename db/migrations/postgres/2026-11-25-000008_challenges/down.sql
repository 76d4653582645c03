DROP TABLE account_events;
DROP TABLE challenges;
