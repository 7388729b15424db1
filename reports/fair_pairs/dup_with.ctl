competition_type = 'playoff'

description = """
Issue 31's third check: two deterministic engines (GNU Go levels 1 and 3, 9x9, at a fixed --seed: without one GNU Go
seeds itself from the clock) with an
opening suite; the report flags games that repeat an earlier one move for move.
"""

players = {
    'gnugo1': Player('/usr/games/gnugo --mode gtp --level 1 --chinese-rules --seed 1'),
    'gnugo3': Player('/usr/games/gnugo --mode gtp --level 3 --chinese-rules --seed 1'),
}
referee = Player('/usr/games/gnugo --mode gtp --chinese-rules')
board_size = 9
komi = 7.5
scorer = 'internal'
openings = Openings('../../openings/go9')
matchups = [Matchup('gnugo1', 'gnugo3', number_of_games=12)]
