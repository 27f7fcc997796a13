import math

import torch
import torch.nn as nn
import torch.nn.functional as F

MOE_CONFIG = {
    "d_model": 16,
    "num_experts": 4,
    "capacity_factor": 1.0,
    "min_capacity": 2,
    "use_rts": False,
}


def expert_capacity(num_tokens, num_experts, capacity_factor, min_capacity):
    return max(int(math.ceil(num_tokens / num_experts * capacity_factor)), min_capacity)


def top1gating(logits, capacity_factor, min_capacity, use_rts=True):
    gates = F.softmax(logits, dim=1)
    num_tokens, num_experts = gates.shape
    capacity = expert_capacity(num_tokens, num_experts, capacity_factor, min_capacity)

    expert_idx = torch.argmax(gates, dim=1)
    mask1 = F.one_hot(expert_idx, num_classes=num_experts)

    me = gates.mean(dim=0)
    ce = mask1.float().mean(dim=0)
    l_aux = (me * ce).sum() * num_experts

    if use_rts:
        # random token selection: every expert keeps `capacity` random tokens
        mask1_rand = mask1 * torch.rand(mask1.shape)
    else:
        mask1_rand = mask1
    top_idx = torch.topk(mask1_rand, k=capacity, dim=0)[1]
    mask1 = mask1 * torch.zeros_like(mask1).scatter_(0, top_idx, 1)

    locations1 = torch.cumsum(mask1, dim=0) - 1
    locations1_s = (locations1 * mask1).sum(dim=1)

    gates = gates * mask1.float()
    locations1_sc = F.one_hot(locations1_s, num_classes=capacity).float()
    combine_weights = torch.einsum("se,sc->sec", gates, locations1_sc)
    dispatch_mask = combine_weights.bool()
    return l_aux, combine_weights, dispatch_mask


class Top1MoE(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.gate = nn.Linear(config["d_model"], config["num_experts"], bias=False)
        self.experts = nn.ModuleList(
            [nn.Linear(config["d_model"], config["d_model"]) for _ in range(config["num_experts"])]
        )

    def forward(self, tokens):
        cfg = self.config
        l_aux, combine, dispatch = top1gating(
            self.gate(tokens), cfg["capacity_factor"], cfg["min_capacity"], use_rts=cfg["use_rts"]
        )
        expert_in = torch.einsum("sec,sm->ecm", dispatch.type_as(tokens), tokens)
        expert_out = torch.stack([expert(x) for expert, x in zip(self.experts, expert_in)])
        return torch.einsum("sec,ecm->sm", combine, expert_out), l_aux, combine


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = Top1MoE(MOE_CONFIG)
    tokens = torch.randn(16, MOE_CONFIG["d_model"])
    print("tokens per expert:", torch.bincount(moe.gate(tokens).argmax(1), minlength=4).tolist())
    out, l_aux, combine = moe(tokens)

    gates = F.softmax(moe.gate(tokens), dim=1)
    choice = gates.argmax(1).tolist()
    capacity = combine.shape[2]
    kept = combine.sum(dim=(1, 2)) > 0
    for e in range(4):
        routed = [t for t in range(16) if choice[t] == e]
        kept_e = [t for t in routed if kept[t]]
        assert len(kept_e) == min(len(routed), capacity)
        for slot, t in enumerate(kept_e):
            assert torch.isclose(combine[t, e, slot], gates[t, e])
            assert torch.allclose(out[t], gates[t, e] * moe.experts[e](tokens[t]), atol=1e-5)
    for t in range(16):
        if not kept[t]:
            assert torch.all(out[t] == 0)
        assert int((combine[t] != 0).sum()) == int(kept[t])
    print("ok")
