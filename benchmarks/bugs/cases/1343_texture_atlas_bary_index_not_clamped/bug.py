import torch


class TexturesAtlas:
    """Per-face R x R texture maps, sampled with nearest-texel lookup."""

    def __init__(self, atlas):
        # atlas: list of (F_i, R, R, D) tensors, one per mesh
        self._atlas_list = atlas

    def atlas_packed(self):
        return torch.cat(self._atlas_list, dim=0)  # (sum(F_i), R, R, D)

    def sample_textures(self, pix_to_face, bary_coords):
        atlas_packed = self.atlas_packed()  # (F, R, R, D)
        R = atlas_packed.shape[1]
        bary = bary_coords[..., :2]  # (N, H, W, K, 2)
        mask = (pix_to_face < 0)[..., None]  # (N, H, W, K, 1)
        bary_w01 = torch.where(mask, torch.zeros_like(bary), bary)
        w_xy = (bary_w01 * R).to(torch.int64)  # (N, H, W, K, 2)

        # texels above the diagonal of the face's square are stored flipped
        below_diag = (
            bary_w01.sum(dim=-1) * R - w_xy.float().sum(dim=-1)
        ) <= 1.0  # (N, H, W, K)
        w_x, w_y = w_xy.unbind(-1)  # (N, H, W, K) each
        w_x = torch.where(below_diag, w_x, (R - 1 - w_x))
        w_y = torch.where(below_diag, w_y, (R - 1 - w_y))

        texels = atlas_packed[pix_to_face, w_y, w_x]  # (N, H, W, K, D)
        texels = texels * (pix_to_face >= 0)[..., None].float()
        return texels


def texel_reference(atlas_packed, face, b0, b1):
    R = atlas_packed.shape[1]
    if face < 0:
        return torch.zeros(atlas_packed.shape[-1])
    x = min(int(b0 * R), R - 1)
    y = min(int(b1 * R), R - 1)
    if b0 * R + b1 * R - x - y > 1.0:
        x, y = R - 1 - x, R - 1 - y
    return atlas_packed[face, y, x]


if __name__ == "__main__":
    torch.manual_seed(0)
    textures = TexturesAtlas(atlas=[torch.rand(6, 4, 4, 3), torch.rand(3, 4, 4, 3)])
    N, H, W, K = 1, 8, 8, 2
    pix_to_face = torch.randint(-1, 9, (N, H, W, K))
    bary = torch.rand(N, H, W, K, 3)
    bary = bary / bary.sum(-1, keepdim=True)
    # pixels whose centre falls exactly on a face's first or second vertex
    bary[0, 2, 3, 0] = torch.tensor([1.0, 0.0, 0.0])
    bary[0, 5, 1, 1] = torch.tensor([0.0, 1.0, 0.0])
    pix_to_face[0, 2, 3, 0] = 4
    pix_to_face[0, 5, 1, 1] = 7

    colors = textures.sample_textures(pix_to_face, bary)
    print("sampled colors:", tuple(colors.shape))
