import torch
import torch.nn as nn
import torch.nn.functional as F


class S2VGraph:
    def __init__(self, node_features, label):
        self.node_features = node_features
        self.label = label


def get_batch_data(batch_graph):
    """Packs a list of graphs into padded node features and a label vector.

    Returns:
        X_concat (Tensor of shape (batch_size, max_nodes, feature_dim))
        graph_labels (Tensor of shape (batch_size,))
    """
    max_nodes = max(g.node_features.shape[0] for g in batch_graph)
    feat_dim = batch_graph[0].node_features.shape[1]
    X_concat = torch.zeros(len(batch_graph), max_nodes, feat_dim)
    for i, g in enumerate(batch_graph):
        X_concat[i, : g.node_features.shape[0]] = g.node_features
    graph_labels = torch.LongTensor([g.label for g in batch_graph])
    return X_concat, graph_labels


def label_smoothing(true_labels, classes, smoothing=0.1):
    """Builds a smoothed one-hot target.

    Args:
        true_labels (Tensor of shape (batch_size,)): class id of each graph.
        classes (int): number of classes.
    Returns:
        Tensor of shape (batch_size, classes).
    """
    confidence = 1.0 - smoothing
    true_dist = torch.empty(true_labels.size(0), classes)
    true_dist.fill_(smoothing / (classes - 1))
    true_dist.scatter_(1, true_labels.data.unsqueeze(1), confidence)
    return true_dist


class GraphReadout(nn.Module):
    def __init__(self, feature_dim, num_classes):
        super().__init__()
        self.proj = nn.Linear(feature_dim, num_classes)

    def forward(self, X_concat):
        return self.proj(X_concat.sum(dim=1))


def train_step(model, batch_graph, num_classes):
    X_concat, graph_labels = get_batch_data(batch_graph)
    logits = model(X_concat)
    target = label_smoothing(graph_labels, num_classes)
    return torch.sum(-target * F.log_softmax(logits, dim=-1), dim=1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 3
    graphs = [S2VGraph(torch.randn(n, 8), n % num_classes) for n in (4, 6, 5, 7)]
    model = GraphReadout(8, num_classes)
    loss = train_step(model, graphs, num_classes)
    X_concat, labels = get_batch_data(graphs)
    logits = model(X_concat)
    logp = F.log_softmax(logits, dim=-1)
    ref = 0.0
    for i, g in enumerate(graphs):
        row = 0.0
        for c in range(num_classes):
            t = 0.9 if c == g.label else 0.1 / (num_classes - 1)
            row += -t * logp[i, c].item()
        ref += row
    ref /= len(graphs)
    assert abs(loss.item() - ref) < 1e-5, (loss.item(), ref)
    print("ok")
