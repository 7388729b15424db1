competition_type = 'playoff'

description = """
Issue 31's first check: GNU Go level 1 against level 10 on 9x9, through the README's example
settings (scorer = 'internal', --chinese-rules, no --capture-all-dead, a GNU Go referee engine,
the shipped 9x9 suite played in colour-swapped pairs). Every record's winner is then checked
against GNU Go's own final_score of the record (reports/fair_pairs/check_winners.py).
"""

players = {
    'gnugo1': Player('/usr/games/gnugo --mode gtp --level 1 --chinese-rules', timeout=60),
    'gnugo10': Player('/usr/games/gnugo --mode gtp --level 10 --chinese-rules', timeout=60),
}
referee = Player('/usr/games/gnugo --mode gtp --chinese-rules')
board_size = 9
komi = 7.5
scorer = 'internal'
openings = Openings('../../openings/go9')
matchups = [Matchup('gnugo1', 'gnugo10', number_of_games=40)]
