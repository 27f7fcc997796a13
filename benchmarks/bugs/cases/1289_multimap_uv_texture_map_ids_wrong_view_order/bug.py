import torch


class TexturesMultiMapUV:
    def __init__(self, maps, faces_uvs, verts_uvs, maps_ids):
        self._maps_padded = maps
        self._faces_uvs_padded = faces_uvs
        self._verts_uvs_padded = verts_uvs
        self._maps_ids_padded = maps_ids

    def maps_padded(self):
        return self._maps_padded

    def maps_ids_padded(self):
        return self._maps_ids_padded

    def sample_textures(self, pix_to_face, pixel_uvs):
        texture_maps = self.maps_padded()
        maps_ids_padded = self.maps_ids_padded()
        N, M, H_in, W_in, C = texture_maps.shape
        _, H_out, W_out, K = pix_to_face.shape

        pix_to_face = pix_to_face.clone()
        pix_to_face[pix_to_face < 0] = 0
        pixel_to_map_ids = maps_ids_padded.flatten().gather(0, pix_to_face.flatten()).view(N, K, H_out, W_out)

        pixel_uvs = pixel_uvs.permute(0, 3, 1, 2, 4)
        x = (pixel_uvs[..., 0] * (W_in - 1)).round().long()
        y = ((1.0 - pixel_uvs[..., 1]) * (H_in - 1)).round().long()
        n = torch.arange(N, device=x.device).view(N, 1, 1, 1).expand_as(x)
        texels = texture_maps[n, pixel_to_map_ids, y, x]
        return texels.permute(0, 2, 3, 1, 4)


def reference_texels(texture_maps, maps_ids, pix_to_face, pixel_uvs):
    N, M, H_in, W_in, C = texture_maps.shape
    _, H_out, W_out, K = pix_to_face.shape
    out = torch.zeros(N, H_out, W_out, K, C)
    flat_ids = maps_ids.flatten().tolist()
    for n in range(N):
        for i in range(H_out):
            for j in range(W_out):
                for k in range(K):
                    m = flat_ids[max(int(pix_to_face[n, i, j, k]), 0)]
                    u, v = pixel_uvs[n, i, j, k].tolist()
                    x, y = round(u * (W_in - 1)), round((1.0 - v) * (H_in - 1))
                    out[n, i, j, k] = texture_maps[n, m, y, x]
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    maps = torch.rand(2, 3, 8, 8, 3)
    faces_uvs = torch.randint(0, 12, (2, 10, 3))
    verts_uvs = torch.rand(2, 12, 2)
    maps_ids = torch.randint(0, 3, (2, 10))
    textures = TexturesMultiMapUV(maps, faces_uvs, verts_uvs, maps_ids)
    pix_to_face = torch.randint(0, 10, (2, 4, 5, 2)) + torch.tensor([0, 10]).view(2, 1, 1, 1)
    pix_to_face[0, 0, 0, 1] = -1
    pixel_uvs = torch.rand(2, 4, 5, 2, 2)
    texels = textures.sample_textures(pix_to_face, pixel_uvs)
    ref = reference_texels(maps, maps_ids, pix_to_face, pixel_uvs)
    print("texels:", tuple(texels.shape), "match loop reference:", torch.allclose(texels, ref),
          "max abs diff:", (texels - ref).abs().max().item())
