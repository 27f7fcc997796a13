import torch
import torch.nn as nn


class EventGRU(nn.Module):
    """Scores the last event of a transaction sequence given a carried hidden state."""

    def __init__(self, n_features: int, hidden: int, num_layers: int = 1):
        super().__init__()
        self.gru = nn.GRU(n_features, hidden, num_layers=num_layers, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, h0):
        # x: (B, T, F)   h0: (num_layers, B, H)
        out, _ = self.gru(x, h0)
        return torch.sigmoid(self.head(out[:, -1]))  # (B, 1)


class CoalitionRunner:
    """Evaluates perturbed sequences in chunks, each with its own pruned-history state."""

    def __init__(self, model: EventGRU, synth_hidden: torch.Tensor, chunk: int):
        self.model = model
        self.synth_hidden = synth_hidden  # (num_layers, n_samples, H)
        self.chunk = chunk

    def run(self, synth_data: torch.Tensor) -> torch.Tensor:
        # synth_data: (n_samples, T, F)
        outs = []
        n = synth_data.shape[0]
        for start in range(0, n, self.chunk):
            rows = torch.arange(start, min(start + self.chunk, n))
            data = synth_data.index_select(0, rows)          # (chunk, T, F)
            hs = self.synth_hidden.index_select(1, rows)      # (num_layers, chunk, H)
            with torch.no_grad():
                outs.append(self.model(data, hs.contiguous()))
        return torch.cat(outs).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = EventGRU(n_features=3, hidden=8, num_layers=1).eval()
    synth_data = torch.randn(12, 5, 3)
    synth_hidden = torch.randn(1, 12, 8)
    runner = CoalitionRunner(model, synth_hidden, chunk=4)
    scores = runner.run(synth_data)
    ref = []
    with torch.no_grad():
        for i in range(12):
            h = synth_hidden[:, i : i + 1, :].contiguous()
            ref.append(model(synth_data[i : i + 1], h)[0, 0])
    assert torch.allclose(scores, torch.stack(ref), atol=1e-6)
    print("ok")
