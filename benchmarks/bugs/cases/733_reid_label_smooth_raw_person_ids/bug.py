import torch
import torch.nn as nn


class CrossEntropyLabelSmooth(nn.Module):
    """Cross entropy with label smoothing.

    Args:
        num_classes: number of identities in the training split.
        epsilon: smoothing weight.
    """

    def __init__(self, num_classes, epsilon=0.1):
        super().__init__()
        self.num_classes = num_classes
        self.epsilon = epsilon
        self.logsoftmax = nn.LogSoftmax(dim=1)

    def forward(self, inputs, targets):
        """
        Args:
            inputs: prediction matrix (before softmax) of shape (batch_size, num_classes).
            targets: ground-truth identity labels of shape (batch_size,).
        """
        log_probs = self.logsoftmax(inputs)
        targets = torch.zeros(log_probs.size()).scatter_(1, targets.unsqueeze(1), 1)
        targets = (1 - self.epsilon) * targets + self.epsilon / self.num_classes
        return (-targets * log_probs).mean(0).sum()


class ReIDDataset(torch.utils.data.Dataset):
    def __init__(self, records):
        self.records = records  # list of (feature, person_id)

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        feat, pid = self.records[i]
        return feat, pid


def build_records(person_ids, dim):
    g = torch.Generator().manual_seed(0)
    return [(torch.randn(dim, generator=g), pid) for pid in person_ids]


if __name__ == "__main__":
    cfg = {"num_classes": 6, "feat_dim": 8}
    train_pids = [0, 2, 3, 5, 7, 8, 2, 0]
    ds = ReIDDataset(build_records(train_pids, cfg["feat_dim"]))
    feats, pids = next(iter(torch.utils.data.DataLoader(ds, batch_size=8)))
    classifier = nn.Linear(cfg["feat_dim"], cfg["num_classes"])
    criterion = CrossEntropyLabelSmooth(cfg["num_classes"])
    loss = criterion(classifier(feats), pids)
    print(loss.item())
