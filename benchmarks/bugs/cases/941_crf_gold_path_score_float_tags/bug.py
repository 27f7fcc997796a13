import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class TaggedSentences(Dataset):
    """Token features and BIO tag ids read from a preprocessed array file."""

    def __init__(self, feats: np.ndarray, tags: np.ndarray):
        self.feats = feats
        self.tags = tags

    def __len__(self):
        return len(self.tags)

    def __getitem__(self, i):
        return torch.from_numpy(self.feats[i]), torch.from_numpy(self.tags[i])


class LinearChainCRF(nn.Module):
    def __init__(self, num_tags: int):
        super().__init__()
        self.start_transitions = nn.Parameter(torch.randn(num_tags))
        self.transitions = nn.Parameter(torch.randn(num_tags, num_tags))

    def gold_score(self, emissions, tags):
        """Score of the gold tag path.

        Args:
            emissions: (seq_len, batch_size, num_tags) unary scores.
            tags: (seq_len, batch_size) gold tag ids.

        Returns:
            (batch_size,) path scores.
        """
        seq_len, batch_size, _ = emissions.shape
        batch_idx = torch.arange(batch_size)
        score = self.start_transitions[tags[0]]
        score = score + emissions[0, batch_idx, tags[0]]
        for t in range(1, seq_len):
            score = score + self.transitions[tags[t - 1], tags[t]]
            score = score + emissions[t, batch_idx, tags[t]]
        return score


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    feats = rng.standard_normal((6, 5, 8)).astype(np.float32)
    tags = rng.integers(0, 4, size=(6, 5)).astype(np.float32)  # stored next to the features
    loader = DataLoader(TaggedSentences(feats, tags), batch_size=3)
    proj = nn.Linear(8, 4)
    crf = LinearChainCRF(4)
    for x, y in loader:
        emissions = proj(x).transpose(0, 1)  # (seq_len, batch, num_tags)
        print("gold path scores:", crf.gold_score(emissions, y.transpose(0, 1)))
        break
