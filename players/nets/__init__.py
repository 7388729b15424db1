"""Policy/value networks for the AlphaZero engine: encodings, model, checkpoints, batched inference."""
