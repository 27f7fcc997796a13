import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class FusedQKVLoRA(nn.Linear):
    """One Linear producing q, k and v; low-rank adapters only on the enabled slices."""

    def __init__(self, in_features, out_features, r=4, lora_alpha=8, enable_lora=(True, False, True),
                 fan_in_fan_out=False, merge_weights=True):
        nn.Linear.__init__(self, in_features, out_features)
        assert out_features % len(enable_lora) == 0
        self.enable_lora = list(enable_lora)
        self.r = r
        self.scaling = lora_alpha / r
        self.fan_in_fan_out = fan_in_fan_out
        self.merge_weights = merge_weights
        self.merged = False
        n_on = sum(self.enable_lora)
        self.lora_A = nn.Parameter(self.weight.new_zeros((r * n_on, in_features)))
        self.lora_B = nn.Parameter(self.weight.new_zeros((out_features // len(enable_lora) * n_on, r)))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)
        self.weight.requires_grad = False
        lora_ind = torch.zeros(out_features, dtype=torch.bool).view(len(enable_lora), -1)
        lora_ind[self.enable_lora, :] = True
        self.register_buffer("lora_ind", lora_ind.view(-1), persistent=False)
        if fan_in_fan_out:
            self.weight.data = self.weight.data.transpose(0, 1)

    def T(self, w):
        return w.transpose(0, 1) if self.fan_in_fan_out else w

    def zero_pad(self, x):
        result = x.new_zeros((*x.shape[:-1], self.out_features))
        result = result.view(-1, self.out_features)
        result[:, self.lora_ind] = x.reshape(-1, self.out_features // len(self.enable_lora) * sum(self.enable_lora))
        return result.view((*x.shape[:-1], self.out_features))

    def zero_pad_rows(self, delta_w):
        # delta_w: [n_lora_out, in_features]; scatter its rows into the enabled output slices
        result = delta_w.new_zeros((self.out_features, *delta_w.shape[1:]))
        result[self.lora_ind] = delta_w
        return result

    def delta_weight(self):
        return F.conv1d(
            self.lora_A.data.unsqueeze(0), self.lora_B.data.unsqueeze(-1), groups=sum(self.enable_lora)
        ).squeeze(0)

    def train(self, mode=True):
        nn.Linear.train(self, mode)
        if not mode and self.merge_weights and not self.merged:
            delta_w = self.delta_weight()
            self.weight.data += self.T(self.zero_pad_rows(delta_w * self.scaling))
            self.merged = True
        elif mode and self.merged:
            delta_w = self.delta_weight()
            self.weight.data -= self.T(self.zero_pad_rows(delta_w * self.scaling))
            self.merged = False
        return self

    def forward(self, x):
        result = F.linear(x, self.T(self.weight), bias=self.bias)
        if not self.merged:
            after_a = F.linear(x, self.lora_A)
            after_b = F.conv1d(
                after_a.transpose(-2, -1), self.lora_B.unsqueeze(-1), groups=sum(self.enable_lora)
            ).transpose(-2, -1)
            result = result + self.zero_pad(after_b) * self.scaling
        return result


if __name__ == "__main__":
    torch.manual_seed(0)
    qkv = FusedQKVLoRA(64, 3 * 64, r=4, lora_alpha=8, enable_lora=(True, False, True))
    nn.init.normal_(qkv.lora_B, std=0.02)  # pretend a few steps of fine-tuning happened
    x = torch.randn(2, 10, 64)
    w0 = qkv.weight.detach().clone()
    y_train = qkv(x)
    qkv.eval()  # merges the adapters into the frozen weight
    y_eval = qkv(x)
    assert torch.allclose(y_train, y_eval, atol=1e-5)

    d, r = 64, 4
    A, B = qkv.lora_A.detach(), qkv.lora_B.detach()
    ref = w0.clone()
    k = 0
    for g, on in enumerate(qkv.enable_lora):
        if not on:
            continue
        for j in range(d):
            for i in range(64):
                ref[g * d + j, i] += qkv.scaling * sum(B[k * d + j, t] * A[k * r + t, i] for t in range(r))
        k += 1
    assert torch.allclose(qkv.weight, ref, atol=1e-5)
    qkv.train()
    assert torch.allclose(qkv.weight, w0, atol=1e-5)
    print("ok")
