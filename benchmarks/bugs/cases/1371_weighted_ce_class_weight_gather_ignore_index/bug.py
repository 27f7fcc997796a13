import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossEntropyWithZLoss(nn.Module):
    """Reference (pure torch) cross entropy with optional class weights and PaLM-style z-loss."""

    def __init__(self, weight=None, ignore_index=-100, lse_square_scale=1e-4):
        super().__init__()
        self.weight = weight
        self.ignore_index = ignore_index
        self.lse_square_scale = lse_square_scale

    def forward(self, logits, targets):
        # logits: [BT, V]  targets: [BT], ignore_index marks padding / prompt tokens
        logits = logits.to(torch.float32)
        target_mask = targets != self.ignore_index  # [BT]
        if self.weight is not None:
            weight = self.weight.to(torch.float32)  # [V]
            if 0 <= self.ignore_index < logits.shape[-1]:
                weight_mask = torch.ones_like(weight)
                weight_mask[self.ignore_index] = 0
                selected_weight = torch.gather(weight * weight_mask, dim=-1, index=targets)
            else:
                selected_weight = torch.gather(weight, dim=-1, index=targets)  # [BT]
            denom = selected_weight.sum()
        else:
            weight = None
            denom = target_mask.sum().to(torch.float32)
        ce_sum = F.cross_entropy(logits, targets, weight=weight, ignore_index=self.ignore_index, reduction="sum")
        lse = torch.logsumexp(logits, dim=-1)  # [BT]
        z_loss = torch.where(target_mask, self.lse_square_scale * lse.pow(2), 0.0).sum()
        return (ce_sum + z_loss) / denom


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, V = 2, 16, 32
    logits = torch.randn(B * T, V)
    targets = torch.randint(0, V, (B * T,))
    targets[:5] = -100  # prompt tokens of the first sequence
    targets[T:T + 3] = -100
    class_weight = torch.rand(V) + 0.5
    loss_fn = CrossEntropyWithZLoss(weight=class_weight, ignore_index=-100)
    loss = loss_fn(logits, targets)
    print("loss:", loss.item())
