competition_type = 'playoff'

description = """
Two random players on 9x9: works with nothing but this project installed.
"""

def random_player(seed):
    return Player([PYTHON, '-m', 'players', 'random', '--seed', str(seed)])

players = {
    'rand1': random_player(1),
    'rand2': random_player(2),
}

board_size = 9
komi = 7.5
scorer = 'internal'

matchups = [
    Matchup('rand1', 'rand2', alternating=True, number_of_games=20),
]
