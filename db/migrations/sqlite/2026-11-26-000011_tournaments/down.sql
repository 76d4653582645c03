DROP TABLE tournament_seats;
DROP TABLE tournament_entrants;
DROP TABLE tournaments;
