import torch
import torch.nn.functional as F


def token_importance(delta, delta_bias):
    # delta: (b d l), delta_bias: (d) -> importance per token (b l)
    return F.softplus(delta + delta_bias[None, :, None]).mean(dim=1)


def get_non_decimated_indices(delta, delta_bias, keep):
    scores = token_importance(delta, delta_bias)  # (b l)
    kept = scores.topk(keep, dim=-1).indices  # (b k)
    return kept.sort(dim=-1).values  # (b k), kept in temporal order


def decimate_ssm_inputs(conv1d_out, x_proj_weight, delta_proj_weight, delta_bias, keep):
    b, d, l = conv1d_out.shape
    delta_rank = delta_proj_weight.shape[1]
    x_dbl = conv1d_out.permute(0, 2, 1).reshape(b * l, d) @ x_proj_weight.t()  # (bl r)
    delta = (x_dbl[:, :delta_rank] @ delta_proj_weight.t()).reshape(b, l, d).permute(0, 2, 1)  # (b d l)
    not_decimated = get_non_decimated_indices(delta, delta_bias, keep)  # (b k)
    x_dbl = x_dbl[not_decimated, :]  # (b k r)
    return x_dbl, not_decimated


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, d_inner, seq_len, d_state, dt_rank, keep = 3, 16, 24, 4, 2, 10
    conv1d_out = torch.randn(batch, d_inner, seq_len)
    x_proj_weight = torch.randn(dt_rank + 2 * d_state, d_inner) * 0.2
    delta_proj_weight = torch.randn(d_inner, dt_rank) * 0.5
    delta_bias = torch.randn(d_inner) * 0.1

    x_dbl, kept = decimate_ssm_inputs(conv1d_out, x_proj_weight, delta_proj_weight, delta_bias, keep)

    full = conv1d_out.permute(0, 2, 1) @ x_proj_weight.t()  # (b l r), per-sequence projections
    ref = torch.zeros_like(x_dbl)
    for i in range(batch):
        for j in range(keep):
            ref[i, j] = full[i, kept[i, j]]
    print("kept token positions, sequence 1:", kept[1].tolist())
    for i in range(batch):
        print(f"sequence {i}: max |x_dbl - reference| = {(x_dbl[i] - ref[i]).abs().max().item():.4f}")
