import torch
import torch.nn as nn


class GraphData:
    """Node features and a labelled subset of nodes.

    Args:
        node_ids: list of N original node ids (as in the input file).
        feats: float tensor of shape (N, d), row i belongs to node_ids[i].
        labelled: list of (node_id, label) pairs.
    """

    def __init__(self, node_ids, feats, labelled):
        self.node_ids = node_ids
        self.feats = feats
        self.labelled = labelled
        self.n, self.d = feats.shape

    def batch(self):
        """Returns ids (B,) int64 and labels (B,) int64."""
        pos = {nid: i for i, nid in enumerate(self.node_ids)}
        ids = torch.tensor([pos[nid] for nid, _ in self.labelled])
        labels = torch.tensor([y for _, y in self.labelled])
        return ids, labels


class Discriminator(nn.Module):
    def __init__(self, data, num_classes):
        super().__init__()
        self.embedding_layer = nn.Embedding(data.n, data.d)
        self.embedding_layer.weight.data.copy_(data.feats)
        self.head = nn.Linear(data.d, num_classes)

    def forward(self, ids):
        """ids: (B,) -> logits (B, num_classes)."""
        return self.head(self.embedding_layer(ids))


if __name__ == "__main__":
    torch.manual_seed(0)
    node_ids = [3, 10, 11, 25, 40, 41]
    data = GraphData(node_ids, torch.randn(6, 8), [(10, 0), (25, 1), (41, 2)])
    model = Discriminator(data, 3)
    ids, labels = data.batch()
    logits = model(ids)
    for b, (nid, _) in enumerate(data.labelled):
        row = data.feats[node_ids.index(nid)]
        assert torch.allclose(logits[b], model.head(row))
    print("ok")
