import torch
import torch.nn as nn
import torch.nn.functional as F


class PrototypeMemory(nn.Module):
    """Running class prototypes for few-shot evaluation.

    Buffers:
        sums (Tensor of shape (num_classes, feat_dim)): summed features of every class seen so far.
        counts (Tensor of shape (num_classes, 1)): number of features summed into each row of `sums`.
    """

    def __init__(self, num_classes, feat_dim):
        super().__init__()
        self.register_buffer("sums", torch.zeros(num_classes, feat_dim))
        self.register_buffer("counts", torch.zeros(num_classes, 1))

    @torch.no_grad()
    def update(self, features, labels):
        """
        Args:
            features (Tensor of shape (batch_size, feat_dim)): L2-normalised embeddings.
            labels (LongTensor of shape (batch_size,)): class of each embedding.
        """
        self.sums.index_add_(0, labels, features)
        self.counts.index_add_(0, labels, torch.ones(labels.size(0), 1))

    def prototypes(self):
        """Returns: Tensor of shape (num_classes, feat_dim), the mean feature of each class."""
        return self.sums / self.counts.clamp(min=1)

    def classify(self, queries):
        """
        Args:
            queries (Tensor of shape (num_queries, feat_dim)): L2-normalised query embeddings.

        Returns:
            LongTensor of shape (num_queries,): the class of the nearest prototype.
        """
        return (queries @ F.normalize(self.prototypes(), dim=-1).t()).argmax(dim=-1)


def embed(encoder, images):
    return F.normalize(encoder(images.flatten(1)), dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Linear(16, 8)
    memory = PrototypeMemory(num_classes=4, feat_dim=8)
    support = torch.randn(10, 4, 4)
    support_labels = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3, 0, 1])
    with torch.no_grad():
        memory.update(embed(encoder, support), support_labels)
        predictions = memory.classify(embed(encoder, support))
    print("support predictions:", predictions.tolist())
    with torch.no_grad():
        feats = embed(encoder, support)
    for c in range(4):
        rows = [feats[i] for i in range(10) if support_labels[i] == c]
        assert memory.counts[c, 0].item() == len(rows)
        assert torch.allclose(memory.prototypes()[c], sum(rows) / len(rows), atol=1e-6)
    print("ok")
