import torch
import torch.nn as nn
import torch.nn.functional as F


class EpochEncoder(nn.Module):
    def __init__(self, n_channels=2, width=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(n_channels, width, kernel_size=25, stride=6), nn.ReLU(),
            nn.Conv1d(width, width, kernel_size=9, stride=3), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


class SleepStager(nn.Module):
    def __init__(self, n_channels=2, width=32, n_stages=5):
        super().__init__()
        self.encoder = EpochEncoder(n_channels, width)
        self.context = nn.GRU(width, width, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * width, n_stages)

    def forward(self, signals):
        b, e, c, t = signals.shape
        z = self.encoder(signals.reshape(b * e, c, t)).reshape(b, e, -1)
        z, _ = self.context(z)
        return self.head(z)


def pad_night(signal, stages, n_epochs):
    pad = n_epochs - stages.shape[0]
    signal = torch.cat([signal, signal.new_zeros(pad, *signal.shape[1:])])
    stages = torch.cat([stages, stages.new_full((pad,), -1)])
    return signal, stages


def staging_loss(model, signals, stages):
    logits = model(signals)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), stages.reshape(-1), ignore_index=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SleepStager()
    nights = []
    for n_real in (40, 33, 27):
        sig = torch.randn(n_real, 2, 600)
        stg = torch.randint(0, 5, (n_real,))
        nights.append(pad_night(sig, stg, n_epochs=40))
    signals = torch.stack([s for s, _ in nights])
    stages = torch.stack([y for _, y in nights])

    loss = staging_loss(model, signals, stages)
    logp = model(signals).log_softmax(-1)
    terms = [-logp[b, e, stages[b, e]] for b in range(3) for e in range(40) if stages[b, e] >= 0]
    assert torch.allclose(loss, torch.stack(terms).mean(), atol=1e-5)
    print("ok")
