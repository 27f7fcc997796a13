import torch
import torch.nn as nn


def global_add_pool(x, batch, num_graphs):
    """Sum the node features of every graph in a mini-batch.

    Args:
        x (Tensor): node features of shape [num_nodes, channels].
        batch (LongTensor): graph id of every node, shape [num_nodes].
        num_graphs (int): number of graphs in the mini-batch.

    Returns:
        Tensor of shape [num_graphs, channels].
    """
    out = x.new_zeros(num_graphs, x.size(1))
    return out.scatter_add_(0, batch.unsqueeze(-1).expand(-1, x.size(1)), x)


class TopKPooling(nn.Module):
    """Keeps the ceil(ratio * n) highest-scoring nodes of each graph.

    Returns the kept node features [num_kept, channels] and their positions `perm` [num_kept].
    """

    def __init__(self, channels, ratio=0.5):
        super().__init__()
        self.score = nn.Linear(channels, 1)
        self.ratio = ratio

    def forward(self, x, batch):
        s = self.score(x).squeeze(-1)
        perm = []
        for g in batch.unique():
            nodes = (batch == g).nonzero().squeeze(-1)
            k = int(torch.ceil(torch.tensor(self.ratio * nodes.numel())))
            perm.append(nodes[s[nodes].topk(k).indices])
        perm = torch.cat(perm)
        return x[perm] * torch.tanh(s[perm]).unsqueeze(-1), perm


class GraphClassifier(nn.Module):
    def __init__(self, in_channels, hidden, num_classes):
        super().__init__()
        self.lin1 = nn.Linear(in_channels, hidden)
        self.pool = TopKPooling(hidden, ratio=0.5)
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x, batch, num_graphs):
        x = torch.relu(self.lin1(x))
        x, perm = self.pool(x, batch)
        return self.head(global_add_pool(x, batch, num_graphs))


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = torch.tensor([0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2])
    x = torch.randn(batch.numel(), 5)
    model = GraphClassifier(5, 8, 3)
    print("logits:", model(x, batch, num_graphs=3))
