import torch
import torch.nn as nn


def label2onehot(labels, dim):
    """Convert label indices to one-hot vectors."""
    out = torch.zeros(list(labels.size()) + [dim])
    out.scatter_(len(out.size()) - 1, labels.unsqueeze(-1), 1.)
    return out


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_feature_list, b_dim):
        super().__init__()
        self.out_feature_list = out_feature_list
        self.linear1 = nn.Linear(in_features, out_feature_list[0])
        self.linear2 = nn.Linear(out_feature_list[0], out_feature_list[1])
        self.b_dim = b_dim

    def forward(self, adj, node_feats):
        # adj: one-hot bond tensor without the "no bond" channel
        hidden = torch.stack([self.linear1(node_feats) for _ in range(self.b_dim)], 1)
        hidden = torch.einsum("bijk,bikl->bijl", adj, hidden).sum(1) + self.linear1(node_feats)
        hidden = torch.tanh(hidden)
        out = torch.stack([self.linear2(hidden) for _ in range(self.b_dim)], 1)
        return torch.tanh(torch.einsum("bijk,bikl->bijl", adj, out).sum(1) + self.linear2(hidden))


class Discriminator(nn.Module):
    def __init__(self, m_dim, b_dim):
        super().__init__()
        self.gcn = GraphConvolution(m_dim, [16, 8], b_dim - 1)
        self.out = nn.Linear(8, 1)

    def forward(self, adj, node):
        adj = adj[:, :, :, 1:].permute(0, 3, 1, 2)
        return self.out(self.gcn(adj, node).sum(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    a = torch.randint(0, 5, (16, 9, 9))
    a = torch.triu(a, 1)
    a = a + a.transpose(1, 2)
    x = torch.randint(0, 5, (16, 9))
    a_tensor = label2onehot(a, 4)
    x_tensor = label2onehot(x, 5)
    D = Discriminator(m_dim=5, b_dim=5)
    with torch.no_grad():
        logits = D(a_tensor, x_tensor)
    print("real/fake logits:", [round(v, 3) for v in logits.view(-1)[:4].tolist()])
