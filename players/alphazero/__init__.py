"""AlphaZero training: self-play and the arena on the search core, replay, training, the pipeline."""
