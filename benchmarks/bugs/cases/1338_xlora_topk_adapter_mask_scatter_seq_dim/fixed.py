import torch
import torch.nn as nn


class ScalingsClassifier(nn.Module):
    """Predicts one mixing weight per (token, layer, adapter) from the base model's hidden states."""

    def __init__(self, hidden_size, n_layers, n_adapters, temperature=1.0):
        super().__init__()
        self.n_layers = n_layers
        self.n_adapters = n_adapters
        self.temperature = temperature
        self.proj = nn.Linear(hidden_size, n_layers * n_adapters)

    def forward(self, hidden):
        # hidden = [batch_size, seq_len, hidden_size]
        batch_size, seq_len, _ = hidden.shape
        logits = self.proj(hidden).view(batch_size, seq_len, self.n_layers, self.n_adapters)
        # scalings = [batch_size, seq_len, n_layers, n_adapters]
        return torch.softmax(logits / self.temperature, dim=-1)


class MixtureOfLoRALinear(nn.Module):
    def __init__(self, in_features, out_features, n_adapters, rank, top_k_lora=None):
        super().__init__()
        self.base = nn.Linear(in_features, out_features)
        self.lora_A = nn.ModuleList([nn.Linear(in_features, rank, bias=False) for _ in range(n_adapters)])
        self.lora_B = nn.ModuleList([nn.Linear(rank, out_features, bias=False) for _ in range(n_adapters)])
        self.top_k_lora = top_k_lora

    def sparsify(self, xlora_scalings):
        # xlora_scalings = [batch_size, seq_len, n_adapters]
        if self.top_k_lora is None:
            return xlora_scalings
        _, topk_indices = torch.topk(xlora_scalings, k=self.top_k_lora, dim=-1)
        # keep the top-k adapters of every token, zero the rest
        mask = torch.zeros_like(xlora_scalings, dtype=torch.bool)
        mask.scatter_(-1, topk_indices, True)
        return xlora_scalings * mask.to(xlora_scalings.dtype)

    def forward(self, x, layer_scalings):
        # x = [batch_size, seq_len, in_features]
        # layer_scalings = [batch_size, seq_len, n_adapters]
        scalings = self.sparsify(layer_scalings)
        out = self.base(x)
        for i, (A, B) in enumerate(zip(self.lora_A, self.lora_B)):
            out = out + B(A(x)) * scalings[:, :, i].unsqueeze(-1)
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    classifier = ScalingsClassifier(hidden_size=32, n_layers=2, n_adapters=4)
    layer = MixtureOfLoRALinear(32, 32, n_adapters=4, rank=4, top_k_lora=2)
    hidden = torch.randn(2, 6, 32)
    with torch.no_grad():
        scalings = classifier(hidden)[:, :, 0, :]
        kept = layer.sparsify(scalings)
        out = layer(hidden, scalings)
        for b in range(2):
            for t in range(6):
                order = sorted(range(4), key=lambda i: scalings[b, t, i].item(), reverse=True)
                ref_row = [scalings[b, t, i].item() if i in order[:2] else 0.0 for i in range(4)]
                assert torch.allclose(kept[b, t], torch.tensor(ref_row))
                x = hidden[b, t]
                ref_out = layer.base(x)
                for i in order[:2]:
                    ref_out = ref_out + layer.lora_B[i](layer.lora_A[i](x)) * scalings[b, t, i]
                assert torch.allclose(out[b, t], ref_out, atol=1e-5)
    print("ok")
