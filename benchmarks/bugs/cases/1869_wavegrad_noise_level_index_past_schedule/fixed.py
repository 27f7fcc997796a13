import numpy as np
import torch
import torch.nn as nn

VOCODER_CONFIG = {
    "train_noise_schedule": {"min_val": 1e-6, "max_val": 1e-2, "num_steps": 50},
    "hop_length": 64,
    "batch_size": 16,
    "seq_len": 1024,
    "num_mels": 20,
}


class WavegradLite(nn.Module):
    """Tiny WaveGrad-style vocoder: conditions a noise predictor on mels and a noise scale."""

    def __init__(self, cfg):
        super().__init__()
        self.hop_length = cfg["hop_length"]
        self.mel_proj = nn.Conv1d(cfg["num_mels"], 8, 3, padding=1)
        self.net = nn.Conv1d(9, 1, 5, padding=2)
        self.levels = None
        self.n_steps = None

    def set_noise_schedule(self, betas):
        self.n_steps = len(betas)
        alphas_cumprod = np.cumprod(1.0 - betas)
        self.levels = torch.from_numpy(np.sqrt(alphas_cumprod)).float()

    def sample_noisy_audio(self, clean):
        clean = clean.reshape(clean.shape[0], -1)
        batch = clean.shape[0]
        step = torch.randint(0, self.n_steps - 1, (batch,))
        lo, hi = self.levels[step], self.levels[step + 1]
        level = lo + (hi - lo) * torch.rand(batch)
        eps = torch.randn_like(clean)
        noisy = level[:, None] * clean + torch.sqrt(1.0 - level[:, None] ** 2) * eps
        return eps[:, None], noisy[:, None], level

    def forward(self, x, mel, noise_scale):
        cond = torch.repeat_interleave(self.mel_proj(mel), self.hop_length, dim=-1)
        scale = noise_scale.view(-1, 1, 1).expand(-1, 1, x.shape[-1])
        return self.net(torch.cat([x + scale, cond], dim=1))


def make_schedule(cfg):
    sched = cfg["train_noise_schedule"]
    return np.linspace(sched["min_val"], sched["max_val"], sched["num_steps"])


def train(cfg, n_steps):
    model = WavegradLite(cfg)
    model.set_noise_schedule(make_schedule(cfg))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    losses = []
    for _ in range(n_steps):
        y_0 = torch.randn(cfg["batch_size"], 1, cfg["seq_len"])
        mel = torch.randn(cfg["batch_size"], cfg["num_mels"], cfg["seq_len"] // cfg["hop_length"])
        noise, y_n, scale = model.sample_noisy_audio(y_0)
        loss = (model(y_n, mel, scale) - noise).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


if __name__ == "__main__":
    torch.manual_seed(0)
    losses = train(VOCODER_CONFIG, n_steps=20)
    assert all(np.isfinite(losses))

    model = WavegradLite(VOCODER_CONFIG)
    model.set_noise_schedule(make_schedule(VOCODER_CONFIG))
    levels = model.levels.tolist()
    for seed in range(30):
        y_0 = torch.randn(VOCODER_CONFIG["batch_size"], 1, VOCODER_CONFIG["seq_len"])
        torch.manual_seed(seed)
        _, _, scale = model.sample_noisy_audio(y_0)
        torch.manual_seed(seed)
        steps = torch.randint(0, model.n_steps - 1, (y_0.shape[0],)).tolist()
        u = torch.rand(y_0.shape[0]).tolist()
        for b in range(y_0.shape[0]):
            ref = levels[steps[b]] + u[b] * (levels[steps[b] + 1] - levels[steps[b]])
            assert abs(scale[b].item() - ref) < 1e-6
    print("ok")
