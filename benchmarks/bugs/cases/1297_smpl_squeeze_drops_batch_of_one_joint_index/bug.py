import torch

KINTREE_PARENT = [-1, 0, 0, 1, 2, 3]


def make_model(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    return {
        "v_template": torch.randn(cfg["num_verts"], 3, generator=g, dtype=torch.float64),
        "shapedirs": torch.randn(cfg["num_verts"], 3, cfg["num_betas"], generator=g, dtype=torch.float64) * 0.01,
        "J_regressor": torch.rand(cfg["num_joints"], cfg["num_verts"], generator=g, dtype=torch.float64).softmax(-1),
    }


def regress_joints(model, betas):
    v_shaped = torch.tensordot(betas, model["shapedirs"], dims=([1], [2])) + model["v_template"]
    J = torch.matmul(model["J_regressor"], v_shaped)
    return J.squeeze()


def bone_offsets(model, betas):
    J = regress_joints(model, betas)
    offsets = [J[:, 0, :]]
    for i in range(1, len(KINTREE_PARENT)):
        offsets.append(J[:, i, :] - J[:, KINTREE_PARENT[i], :])
    return torch.stack(offsets, dim=1)


def reference_offsets(model, betas):
    out = []
    for b in range(betas.shape[0]):
        v = model["v_template"] + torch.einsum("vck,k->vc", model["shapedirs"], betas[b])
        J = model["J_regressor"] @ v
        rows = [J[0]] + [J[i] - J[KINTREE_PARENT[i]] for i in range(1, len(KINTREE_PARENT))]
        out.append(torch.stack(rows))
    return torch.stack(out)


if __name__ == "__main__":
    cfg = {"num_verts": 40, "num_joints": len(KINTREE_PARENT), "num_betas": 10, "batch": 1}
    model = make_model(cfg)
    betas = (torch.rand(cfg["batch"], cfg["num_betas"], dtype=torch.float64) - 0.5) * 0.06
    offsets = bone_offsets(model, betas)
    assert torch.allclose(offsets, reference_offsets(model, betas))
    print("ok")
