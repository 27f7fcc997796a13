from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class ReIDConfig:
    dataset: str = "rap"
    num_classes: int = 751  # identities in the training split
    feat_dim: int = 64
    epsilon: float = 0.1


class RAPTrainSet:
    def __init__(self, raw_pids, seed=0):
        # relabel raw person ids to 0..num_pids-1
        self.pid2label = {pid: i for i, pid in enumerate(sorted(set(raw_pids)))}
        self.labels = [self.pid2label[p] for p in raw_pids]
        self.num_train_pids = len(self.pid2label)
        g = torch.Generator().manual_seed(seed)
        self.feats = torch.randn(len(raw_pids), 64, generator=g)

    def batch(self, idx):
        return self.feats[idx], torch.tensor([self.labels[i] for i in idx])


class CrossEntropyLabelSmooth(nn.Module):
    def __init__(self, num_classes, epsilon=0.1):
        super().__init__()
        self.num_classes = num_classes
        self.epsilon = epsilon
        self.logsoftmax = nn.LogSoftmax(dim=1)

    def forward(self, inputs, targets):
        # inputs: (B, num_classes) logits; targets: (B,) identity labels
        log_probs = self.logsoftmax(inputs)
        # one-hot targets: (B, num_classes)
        onehot = torch.zeros(log_probs.size()).scatter_(1, targets.unsqueeze(1), 1)
        smoothed = (1 - self.epsilon) * onehot + self.epsilon / self.num_classes
        return (-smoothed * log_probs).mean(0).sum()


def train_step(cfg, dataset, idx):
    torch.manual_seed(0)
    classifier = nn.Linear(cfg.feat_dim, cfg.num_classes, bias=False)
    criterion = CrossEntropyLabelSmooth(cfg.num_classes, cfg.epsilon)
    feats, labels = dataset.batch(idx)
    return criterion(classifier(feats), labels), classifier, feats, labels


if __name__ == "__main__":
    raw_pids = [3 * p + 7 for p in range(1295)]  # RAP has 1295 training identities
    dataset = RAPTrainSet(raw_pids)
    loss, *_ = train_step(ReIDConfig(), dataset, [0, 5, 800, 1200, 1294, 10, 20, 30])
    print("loss:", loss.item())
