"""AlphaZero: batched PUCT search over many games, self-play, training, arena and the resumable pipeline."""
