DROP INDEX seats_one_per_person;
DROP INDEX seeks_one_open;
