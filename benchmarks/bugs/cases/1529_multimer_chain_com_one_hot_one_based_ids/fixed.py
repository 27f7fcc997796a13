import torch
import torch.nn.functional as F

CA_INDEX = 1  # C-alpha slot in the 37-atom layout (N, CA, C, ...)


def masked_mean(mask: torch.Tensor, value: torch.Tensor, dim, eps: float = 1e-10) -> torch.Tensor:
    mask = mask.expand(*value.shape)
    return torch.sum(mask * value, dim=dim) / (eps + torch.sum(mask, dim=dim))


def pairwise_distance(points: torch.Tensor, eps: float) -> torch.Tensor:
    diff = points[..., :, None, :] - points[..., None, :, :]
    return torch.sqrt(eps + torch.sum(diff ** 2, dim=-1))


def chain_centre_of_mass_loss(
    all_atom_pred_pos: torch.Tensor,
    all_atom_positions: torch.Tensor,
    all_atom_mask: torch.Tensor,
    asym_id: torch.Tensor,
    clamp_distance: float = -4.0,
    weight: float = 0.05,
    eps: float = 1e-10,
) -> torch.Tensor:
    """
    Penalises predicted chain centres of mass that sit closer together than in the
    ground truth (multimer fine-tuning loss).

    Args:
        all_atom_pred_pos:
            [*, N_res, 37, 3] predicted atom positions
        all_atom_positions:
            [*, N_res, 37, 3] ground-truth atom positions
        all_atom_mask:
            [*, N_res, 37] atom mask
        asym_id:
            [*, N_res] chain id of every residue, numbered from 1 by the feature pipeline
        clamp_distance:
            errors above this value are not penalised
        weight:
            scale applied to the distance error
    Returns:
        [*] loss
    """
    pred_ca = all_atom_pred_pos[..., CA_INDEX, :]
    true_ca = all_atom_positions[..., CA_INDEX, :]
    ca_mask = all_atom_mask[..., CA_INDEX : CA_INDEX + 1]
    num_chains = torch.unique(asym_id).numel()
    chain_onehot = F.one_hot(asym_id.long() - 1, num_classes=num_chains).to(ca_mask.dtype)
    chain_onehot = chain_onehot * ca_mask
    chain_mask = chain_onehot.transpose(-2, -1)
    chain_exists = torch.any(chain_mask > 0, dim=-1).to(ca_mask.dtype)

    def centres(pos: torch.Tensor) -> torch.Tensor:
        total = (chain_mask[..., None] * pos[..., None, :, :]).sum(dim=-2)
        return total / (chain_mask.sum(dim=-1, keepdim=True) + eps)

    pred_dists = pairwise_distance(centres(pred_ca), eps)
    true_dists = pairwise_distance(centres(true_ca), eps)
    losses = torch.clamp(weight * (pred_dists - true_dists - clamp_distance), max=0) ** 2
    pair_mask = chain_exists[..., :, None] * chain_exists[..., None, :]
    return masked_mean(pair_mask, losses, dim=(-1, -2))


def reference_loss(pred, true, mask, asym_id, clamp_distance=-4.0, weight=0.05, eps=1e-10):
    out = []
    for b in range(pred.shape[0]):
        chains = sorted(set(asym_id[b].tolist()))
        pc, tc = [], []
        for c in chains:
            rows = [i for i in range(pred.shape[1]) if asym_id[b, i] == c and mask[b, i, CA_INDEX] > 0]
            pc.append(torch.stack([pred[b, i, CA_INDEX] for i in rows]).mean(0))
            tc.append(torch.stack([true[b, i, CA_INDEX] for i in rows]).mean(0))
        total = 0.0
        for i in range(len(chains)):
            for j in range(len(chains)):
                dp = torch.sqrt(eps + ((pc[i] - pc[j]) ** 2).sum())
                dt = torch.sqrt(eps + ((tc[i] - tc[j]) ** 2).sum())
                total = total + torch.clamp(weight * (dp - dt - clamp_distance), max=0) ** 2
        out.append(total / len(chains) ** 2)
    return torch.stack(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    asym_id = torch.tensor([[1] * 5 + [2] * 4 + [3] * 3])
    true_pos = torch.randn(1, 12, 37, 3) * 3.0
    true_pos[:, 5:9] += torch.tensor([30.0, 0.0, 0.0])
    true_pos[:, 9:] += torch.tensor([0.0, 30.0, 0.0])
    pred_pos = true_pos + torch.randn(1, 12, 37, 3)
    pred_pos[:, 9:] -= torch.tensor([0.0, 25.0, 0.0])  # third chain collapsed onto the first
    atom_mask = torch.ones(1, 12, 37)

    loss = chain_centre_of_mass_loss(pred_pos, true_pos, atom_mask, asym_id)
    ref = reference_loss(pred_pos, true_pos, atom_mask, asym_id)
    assert torch.allclose(loss, ref, atol=1e-5), (loss, ref)
    assert loss.item() > 0
    print("ok")
