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
    user_vocab, user_idx = users.unique(return_inverse=True)      # raw id -> 0..n_users-1
    movie_vocab, movie_idx = movies.unique(return_inverse=True)
    n_users, n_movies = user_vocab.numel(), movie_vocab.numel()
    loader = DataLoader(RatingsDataset(user_idx, movie_idx, ratings), batch_size=16, shuffle=False)
    net = EmbeddingNet(n_users, n_movies)

    x_batch, _ = next(iter(loader))
    with torch.no_grad():
        out = net(x_batch[:, 0], x_batch[:, 1])
        for r in range(x_batch.shape[0]):
            u_raw, m_raw = int(users[r]), int(movies[r])
            u_row = [i for i in range(n_users) if int(user_vocab[i]) == u_raw][0]
            m_row = [i for i in range(n_movies) if int(movie_vocab[i]) == m_raw][0]
            feat = torch.cat([net.u.weight[u_row], net.m.weight[m_row]])
            ref = torch.sigmoid(net.hidden(feat.unsqueeze(0))).item() * 4.0 + 1.0
            assert abs(out[r].item() - ref) < 1e-5
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    train_epoch(net, loader, opt)
    print("ok")
