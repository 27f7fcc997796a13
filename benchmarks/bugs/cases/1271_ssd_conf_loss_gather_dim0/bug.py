import torch
import torch.nn as nn


def log_sum_exp(x: torch.Tensor) -> torch.Tensor:
    # x: [N, C] -> [N, 1], numerically stable
    x_max = x.max(dim=1, keepdim=True).values
    return torch.log(torch.exp(x - x_max).sum(dim=1, keepdim=True)) + x_max


class MultiBoxConfMining(nn.Module):
    """Confidence part of an SSD/RFB MultiBox loss: per-prior CE used for hard negative mining."""

    def __init__(self, num_classes: int, neg_pos_ratio: int = 3):
        super().__init__()
        self.num_classes = num_classes
        self.neg_pos_ratio = neg_pos_ratio

    def prior_losses(self, conf_data: torch.Tensor, conf_t: torch.Tensor) -> torch.Tensor:
        # conf_data: [B, P, C] class logits per prior box
        # conf_t:    [B, P]    matched class id per prior (0 = background)
        batch_conf = conf_data.view(-1, self.num_classes)  # [B*P, C]
        loss_c = log_sum_exp(batch_conf) - batch_conf.gather(0, conf_t.view(-1, 1))  # [B*P, 1]
        return loss_c.view(conf_t.size(0), -1)  # [B, P]

    def forward(self, conf_data: torch.Tensor, conf_t: torch.Tensor):
        pos = conf_t > 0  # [B, P]
        loss_c = self.prior_losses(conf_data, conf_t).clone()
        loss_c[pos] = 0.0
        _, loss_idx = loss_c.sort(1, descending=True)
        _, idx_rank = loss_idx.sort(1)
        num_neg = (self.neg_pos_ratio * pos.long().sum(1, keepdim=True)).clamp(max=pos.size(1) - 1)
        neg = idx_rank < num_neg  # [B, P]
        return pos, neg


if __name__ == "__main__":
    torch.manual_seed(0)
    B, P, C = 2, 12, 3
    conf_data = torch.randn(B, P, C)
    conf_t = torch.randint(0, C, (B, P))
    miner = MultiBoxConfMining(num_classes=C)
    got = miner.prior_losses(conf_data, conf_t)
    ref = torch.logsumexp(conf_data, dim=-1) - conf_data.gather(2, conf_t.unsqueeze(-1)).squeeze(-1)
    print("per-prior CE (first image):", [round(v, 3) for v in got[0].tolist()[:6]])
    print("reference               :", [round(v, 3) for v in ref[0].tolist()[:6]])
    print("max abs diff:", (got - ref).abs().max().item())
