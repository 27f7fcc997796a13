import torch
import torch.nn as nn


class LocalExperts(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.num_expert = cfg["num_expert"]
        self.gate = nn.Linear(cfg["d_model"], cfg["num_expert"], bias=False)
        self.weight = nn.Parameter(torch.randn(cfg["num_expert"], cfg["d_hidden"], cfg["d_model"]) * 0.1)

    def route(self, inp):
        gate = self.gate(inp).argmax(dim=-1)
        _, pos = torch.sort(gate)
        expert_count = torch.bincount(gate, minlength=self.num_expert)
        return gate, pos, expert_count

    def run_experts(self, buf, expert_count):
        outs = []
        start = 0
        for e, n in enumerate(expert_count.tolist()):
            outs.append(buf[start:start + n] @ self.weight[e].t())
            start += n
        return torch.cat(outs, dim=0)

    def forward(self, inp):
        gate, pos, expert_count = self.route(inp)
        # lay the tokens out expert by expert
        input_buf = torch.empty_like(inp).index_copy_(0, pos, inp)
        output_buf = self.run_experts(input_buf, expert_count)
        # and put the results back in token order
        output = output_buf.index_select(0, pos)
        return output, gate


def make_tokens(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(cfg["tokens"], cfg["d_model"], generator=g)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_expert": 4, "d_model": 8, "d_hidden": 16, "tokens": 24}
    moe = LocalExperts(cfg)
    x = make_tokens(cfg, seed=1)
    with torch.no_grad():
        y, gate = moe(x)
        direct = torch.einsum("nd,nhd->nh", x, moe.weight[gate])
    print("tokens processed by their own expert:", int(torch.isclose(y, direct, atol=1e-5).all(-1).sum()), "of", cfg["tokens"])
