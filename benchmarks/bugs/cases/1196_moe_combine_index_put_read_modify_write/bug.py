import torch
import torch.nn as nn


def index_add_rmw(out, index, source, alpha=1.0):
    gathered = out.index_select(0, index)
    out.index_put_((index,), gathered + alpha * source)
    return out


class Top2MoE(nn.Module):
    def __init__(self, d_model, d_ff, n_experts):
        super().__init__()
        self.router = nn.Linear(d_model, n_experts, bias=False)
        self.w_in = nn.Parameter(torch.randn(n_experts, d_model, d_ff) * 0.1)
        self.w_out = nn.Parameter(torch.randn(n_experts, d_ff, d_model) * 0.1)

    def forward(self, x):
        probs = torch.softmax(self.router(x), dim=-1)
        weights, experts = probs.topk(2, dim=-1)
        flat_tokens = torch.arange(x.size(0)).repeat_interleave(2)
        flat_experts = experts.reshape(-1)
        flat_weights = weights.reshape(-1)
        out = torch.zeros_like(x)
        for e in range(self.w_in.size(0)):
            sel = (flat_experts == e).nonzero(as_tuple=True)[0]
            if sel.numel() == 0:
                continue
            tok = flat_tokens[sel]
            h = torch.relu(x[tok] @ self.w_in[e]) @ self.w_out[e]
            out = index_add_rmw(out, flat_tokens[sel], h * flat_weights[sel, None])
        return out


def moe_all_at_once(model, x):
    probs = torch.softmax(model.router(x), dim=-1)
    weights, experts = probs.topk(2, dim=-1)
    tok = torch.arange(x.size(0)).repeat_interleave(2)
    e = experts.reshape(-1)
    h = torch.relu(torch.einsum("nd,ndf->nf", x[tok], model.w_in[e]))
    h = torch.einsum("nf,nfd->nd", h, model.w_out[e]) * weights.reshape(-1, 1)
    return index_add_rmw(torch.zeros_like(x), tok, h)


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = Top2MoE(d_model=16, d_ff=32, n_experts=4)
    x = torch.randn(64, 16)
    with torch.no_grad():
        a = moe(x)
        b = moe_all_at_once(moe, x)
    print("per-expert vs fused max diff:", (a - b).abs().max().item())
    print("fused row 0 norm", b[0].norm().item(), "per-expert row 0 norm", a[0].norm().item())
