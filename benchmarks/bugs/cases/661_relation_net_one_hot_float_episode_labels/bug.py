import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


class EpisodeQueries(Dataset):
    """Query images of one few-shot episode and their class ids within the episode."""

    def __init__(self, features, labels):
        self.features = features
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.features[i], torch.Tensor([self.labels[i]])


class RelationHead(nn.Module):
    def __init__(self, feat_dim=64, hidden=8):
        super().__init__()
        self.fc1 = nn.Linear(2 * feat_dim, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, pairs):
        return torch.sigmoid(self.fc2(torch.relu(self.fc1(pairs))))


def episode_loss(head, support_protos, query_feats, query_labels, n_way):
    n_query = query_feats.size(0)
    protos = support_protos.unsqueeze(0).expand(n_query, -1, -1)
    queries = query_feats.unsqueeze(1).expand(-1, n_way, -1)
    relations = head(torch.cat([protos, queries], dim=2)).view(n_query, n_way)
    one_hot = torch.zeros(n_query, n_way).scatter_(1, query_labels.view(-1, 1), 1)
    return ((relations - one_hot) ** 2).mean(), relations, one_hot


if __name__ == "__main__":
    torch.manual_seed(0)
    n_way, per_class = 5, 3
    support_protos = torch.randn(n_way, 64)
    feats = torch.randn(n_way * per_class, 64)
    labels = [c for c in range(n_way) for _ in range(per_class)]
    loader = DataLoader(EpisodeQueries(feats, labels), batch_size=len(labels), shuffle=True)
    query_feats, query_labels = next(iter(loader))
    loss, relations, one_hot = episode_loss(RelationHead(), support_protos, query_feats, query_labels, n_way)
    print("mse", loss.item())
