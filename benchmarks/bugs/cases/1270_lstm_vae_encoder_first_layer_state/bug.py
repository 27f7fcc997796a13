import torch
import torch.nn as nn

SETTINGS = dict(n_features=4, hidden=16, depth=2, latent=3, seq_len=7, batch=5)


class Encoder(nn.Module):
    def __init__(self, n_features, hidden, depth):
        super().__init__()
        self.model = nn.LSTM(n_features, hidden, num_layers=depth, batch_first=True)

    def forward(self, x):
        _, (h_end, c_end) = self.model(x)
        return h_end[0]


class Lambda(nn.Module):
    def __init__(self, hidden, latent):
        super().__init__()
        self.to_mean = nn.Linear(hidden, latent)
        self.to_logvar = nn.Linear(hidden, latent)

    def forward(self, h):
        return self.to_mean(h), self.to_logvar(h)


def encode_batch(encoder, lmbd, x):
    return lmbd(encoder(x))


def build(settings):
    enc = Encoder(settings["n_features"], settings["hidden"], settings["depth"])
    lmbd = Lambda(settings["hidden"], settings["latent"])
    return enc, lmbd


if __name__ == "__main__":
    torch.manual_seed(0)
    enc, lmbd = build(SETTINGS)
    x = torch.randn(SETTINGS["batch"], SETTINGS["seq_len"], SETTINGS["n_features"])
    with torch.no_grad():
        mean, _ = encode_batch(enc, lmbd, x)
        ref = []
        for i in range(x.shape[0]):
            out, _ = enc.model(x[i : i + 1])
            ref.append(lmbd.to_mean(out[0, -1]))
        ref = torch.stack(ref)
    print("latent means from encoder:", mean[0].tolist())
    print("from last layer's final output:", ref[0].tolist())
