"""Policy/value networks for the AlphaZero engine: encodings, model, checkpoints and batched inference (imports torch)."""
