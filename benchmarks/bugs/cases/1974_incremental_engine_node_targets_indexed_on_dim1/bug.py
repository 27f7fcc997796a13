from typing import List

import torch
from torch import nn


class Data:
    """Minimal stand-in for a PyG Data object."""

    def __init__(self, x=None, y=None, edge_index=None):
        self.x, self.y, self.edge_index = x, y, edge_index


class Batch(Data):
    @staticmethod
    def from_data_list(data_list):
        xs, ys, eis, batch, offset = [], [], [], [], 0
        for i, d in enumerate(data_list):
            xs.append(d.x)
            ys.append(d.y)
            eis.append(d.edge_index + offset)
            batch.append(torch.full((d.x.size(0),), i, dtype=torch.long))
            offset += d.x.size(0)
        b = Batch(torch.cat(xs), torch.cat(ys), torch.cat(eis, dim=1))
        b.batch = torch.cat(batch)
        return b


class NodeEmbedder(nn.Module):
    def __init__(self, dim_node_features, dim_embedding):
        super().__init__()
        self.lin = nn.Linear(dim_node_features, dim_embedding)

    def forward(self, data):
        src, dst = data.edge_index
        agg = torch.zeros_like(data.x).index_add_(0, dst, data.x[src])
        return torch.relu(self.lin(data.x + agg))


class TrainingEngine:
    def __init__(self, model):
        self.model = model

    def _to_data_list(self, x, batch, y) -> List[Data]:
        data_list = []

        _, counts = torch.unique_consecutive(batch, return_counts=True)
        cumulative = torch.cumsum(counts, dim=0)

        is_graph_prediction = y.shape[0] == len(cumulative)

        y = y.unsqueeze(1) if y.dim() == 1 else y

        data_list.append(Data(x=x[:cumulative[0]],
                              y=y[0].unsqueeze(0) if is_graph_prediction else y[:, cumulative[0]]))
        for i in range(1, len(cumulative)):
            g = Data(x=x[cumulative[i - 1]:cumulative[i]],
                     y=y[i].unsqueeze(0) if is_graph_prediction else y[cumulative[i - 1]:cumulative[i]])
            data_list.append(g)

        return data_list

    @torch.no_grad()
    def infer(self, loader):
        """Computes the embeddings of one layer and stores them for the next incremental layer."""
        stored = []
        for data in loader:
            emb = self.model(data)
            stored.extend(self._to_data_list(emb, data.batch, data.y))
        return stored


def make_graph(n, dim, num_classes):
    x = torch.randn(n, dim)
    y = torch.randint(0, num_classes, (n,))
    src = torch.arange(n)
    dst = (src + 1) % n
    return Data(x, y, torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1))


if __name__ == "__main__":
    torch.manual_seed(0)
    graphs = [make_graph(n, 5, 3) for n in (4, 3, 6)]
    loader = [Batch.from_data_list(graphs)]
    engine = TrainingEngine(NodeEmbedder(5, 8))
    stored = engine.infer(loader)
    print([(d.x.shape[0], d.y.shape[0]) for d in stored])
