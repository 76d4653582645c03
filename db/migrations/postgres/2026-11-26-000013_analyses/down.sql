DROP TABLE game_analyses;
