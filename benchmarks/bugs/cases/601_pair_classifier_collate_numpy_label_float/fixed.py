import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class InputExample:
    def __init__(self, texts, label):
        self.texts = texts
        self.label = label


def smart_batching_collate(batch):
    """Collate a list of InputExample into features and a label tensor.

    Returns:
        features: (batch_size, 2, dim) float tensor of the two sentence embeddings.
        labels: (batch_size,) tensor of class ids.
    """
    features = torch.stack([torch.stack(ex.texts) for ex in batch])
    label_type = torch.long if isinstance(batch[0].label, (int, np.integer)) else torch.float
    labels = torch.tensor([ex.label for ex in batch], dtype=label_type)
    return features, labels


class SoftmaxLoss(nn.Module):
    """NLI head over (u, v, |u - v|).

    Args:
        dim: sentence embedding size.
        num_labels: number of classes.
    """

    def __init__(self, dim, num_labels):
        super().__init__()
        self.classifier = nn.Linear(3 * dim, num_labels)

    def forward(self, features, labels):
        """features: (batch, 2, dim); labels: (batch,) class ids. Returns the mean NLL."""
        u, v = features[:, 0], features[:, 1]
        logits = self.classifier(torch.cat([u, v, (u - v).abs()], dim=-1))
        logp = F.log_softmax(logits, dim=-1)
        return -logp.gather(1, labels.unsqueeze(1)).squeeze(1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    raw_labels = np.array([0, 2, 1, 1, 0, 2])  # read from a pandas column
    examples = [InputExample([torch.randn(8), torch.randn(8)], lab) for lab in raw_labels]
    feats, labels = smart_batching_collate(examples)
    loss_fn = SoftmaxLoss(8, 3)
    loss = loss_fn(feats, labels)
    u, v = feats[:, 0], feats[:, 1]
    logits = loss_fn.classifier(torch.cat([u, v, (u - v).abs()], dim=-1))
    logp = F.log_softmax(logits, dim=-1)
    ref = 0.0
    for i, lab in enumerate(raw_labels.tolist()):
        ref -= logp[i, lab].item()
    ref /= len(raw_labels)
    assert labels.dtype == torch.long
    assert abs(loss.item() - ref) < 1e-5
    print("ok")
