import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

PAD_LABEL = -100  # same ignore value the token-classification head uses


def collate_tagging(samples):
    feats = pad_sequence([s["feats"] for s in samples], batch_first=True)  # (B, T, F)
    tags = pad_sequence([s["tags"] for s in samples], batch_first=True, padding_value=PAD_LABEL)  # (B, T)
    mask = pad_sequence([torch.ones(len(s["tags"]), dtype=torch.bool) for s in samples], batch_first=True)
    return feats, tags, mask


class LinearChainCRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.start = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.trans = nn.Parameter(torch.randn(num_tags, num_tags) * 0.1)  # (K, K)

    def gold_score(self, emissions, tags, mask):
        # emissions: (B, T, K)   tags: (B, T)   mask: (B, T)
        emit = emissions.gather(2, tags.unsqueeze(-1)).squeeze(-1)  # (B, T)
        score = self.start[tags[:, 0]] + emit[:, 0]
        for t in range(1, tags.size(1)):
            step = self.trans[tags[:, t - 1], tags[:, t]] + emit[:, t]
            score = score + step * mask[:, t]
        return score


if __name__ == "__main__":
    torch.manual_seed(0)
    num_tags, feat_dim = 5, 4
    samples = [
        {"feats": torch.randn(4, feat_dim), "tags": torch.tensor([1, 2, 2, 0])},
        {"feats": torch.randn(2, feat_dim), "tags": torch.tensor([3, 4])},
    ]
    feats, tags, mask = collate_tagging(samples)
    emitter = nn.Linear(feat_dim, num_tags)
    crf = LinearChainCRF(num_tags)
    print("gold scores", crf.gold_score(emitter(feats), tags, mask))
