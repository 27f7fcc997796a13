import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def load_ratings(seed=0):
    g = torch.Generator().manual_seed(seed)
    users = torch.arange(1, 31).repeat_interleave(4)          # ids 1..30 as in u.data
    movies = torch.randint(1, 51, (users.numel(),), generator=g)
    movies[:50] = torch.arange(1, 51)                          # every movie rated at least once
    ratings = torch.randint(1, 6, (users.numel(),), generator=g).float()
    return users, movies, ratings


class RatingsDataset(Dataset):
    def __init__(self, users, movies, ratings):
        self.users, self.movies, self.ratings = users, movies, ratings

    def __len__(self):
        return self.users.numel()

    def __getitem__(self, i):
        return torch.stack([self.users[i], self.movies[i]]), self.ratings[i]


class EmbeddingNet(nn.Module):
    def __init__(self, n_users, n_movies, n_factors=8, hidden=16):
        super().__init__()
        self.u = nn.Embedding(n_users, n_factors)
        self.m = nn.Embedding(n_movies, n_factors)
        self.hidden = nn.Sequential(nn.Linear(2 * n_factors, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, users, movies, minmax=(1.0, 5.0)):
        features = torch.cat([self.u(users), self.m(movies)], dim=1)
        out = torch.sigmoid(self.hidden(features)).squeeze(1)
        lo, hi = minmax
        return out * (hi - lo) + lo


def train_epoch(net, loader, opt):
    total = 0.0
    for x_batch, y_batch in loader:
        opt.zero_grad()
        outputs = net(x_batch[:, 0], x_batch[:, 1])
        loss = nn.functional.mse_loss(outputs, y_batch)
        loss.backward()
        opt.step()
        total += loss.item() * y_batch.numel()
    return total / len(loader.dataset)


if __name__ == "__main__":
    torch.manual_seed(0)
    users, movies, ratings = load_ratings()
    n_users, n_movies = users.unique().numel(), movies.unique().numel()
    print("n_users", n_users, "n_movies", n_movies, "max user id", int(users.max()))
    loader = DataLoader(RatingsDataset(users, movies, ratings), batch_size=16, shuffle=False)
    net = EmbeddingNet(n_users, n_movies)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    print("epoch loss", train_epoch(net, loader, opt))
