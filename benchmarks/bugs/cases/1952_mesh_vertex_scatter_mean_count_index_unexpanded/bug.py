import torch
from torch import nn, Tensor
from jaxtyping import Float, Int


class VertexQuantizer(nn.Module):
    """Nearest-neighbour codebook standing in for the residual VQ."""

    def __init__(self, dim: int, codebook_size: int):
        super().__init__()
        self.codebook = nn.Parameter(torch.randn(codebook_size, dim))

    def forward(self, x: Float[Tensor, "b nv d"]):
        dists = torch.cdist(x, self.codebook.unsqueeze(0).expand(x.shape[0], -1, -1))
        codes = dists.argmin(dim=-1)
        quantized = self.codebook[codes]
        commit_loss = (quantized.detach() - x).pow(2).mean()
        return quantized, codes, commit_loss


class MeshAutoencoder(nn.Module):
    def __init__(self, dim: int = 32, dim_codebook: int = 8, codebook_size: int = 64):
        super().__init__()
        self.project_dim_codebook = nn.Linear(dim, dim_codebook * 3)
        self.quantizer = VertexQuantizer(dim_codebook, codebook_size)
        self.project_codebook_out = nn.Linear(dim_codebook * 3, dim)

    def average_face_embed_onto_vertices(
        self,
        faces: Int[Tensor, "b nf 3"],
        face_embed: Float[Tensor, "b nf d"],
    ) -> Float[Tensor, "b nv dc"]:
        batch, num_faces, _ = faces.shape

        max_vertex_index = faces.amax()
        num_vertices = int(max_vertex_index.item() + 1)

        face_embed = self.project_dim_codebook(face_embed)
        face_embed = face_embed.reshape(batch, num_faces, 3, -1)

        vertex_dim = face_embed.shape[-1]
        faces_with_dim: Int[Tensor, "b nf 3 dc"] = faces.unsqueeze(-1).expand(-1, -1, -1, vertex_dim)

        faces_with_dim: Int[Tensor, "b nfv dc"] = faces_with_dim.reshape(batch, -1, vertex_dim)
        face_embed: Float[Tensor, "b nfv dc"] = face_embed.reshape(batch, -1, vertex_dim)

        vertices = torch.zeros((batch, num_vertices, vertex_dim))

        # scatter mean

        num = vertices.scatter_add(-2, faces_with_dim, face_embed)
        den = torch.zeros_like(vertices).scatter_add(-2, faces, torch.ones_like(face_embed))

        averaged_vertices = num / den.clamp(min=1e-5)
        return averaged_vertices

    def quantize(
        self,
        faces: Int[Tensor, "b nf 3"],
        face_embed: Float[Tensor, "b nf d"],
    ):
        batch, num_faces, _ = faces.shape
        averaged_vertices = self.average_face_embed_onto_vertices(faces, face_embed)
        vertex_dim = averaged_vertices.shape[-1]

        quantized, codes, commit_loss = self.quantizer(averaged_vertices)

        # gather quantized vertexes back to faces for decoding
        faces_with_dim = faces.unsqueeze(-1).expand(-1, -1, -1, vertex_dim).reshape(batch, -1, vertex_dim)
        face_embed_output = quantized.gather(-2, faces_with_dim)
        face_embed_output = face_embed_output.reshape(batch, num_faces, 3 * vertex_dim)
        face_embed_output = self.project_codebook_out(face_embed_output)

        codes_output = codes.gather(-1, faces.reshape(batch, -1)).reshape(batch, num_faces, 3)
        return face_embed_output, codes_output, commit_loss


def make_strip_mesh(num_quads: int) -> Int[Tensor, "nf 3"]:
    faces = []
    for q in range(num_quads):
        a, b, c, d = 2 * q, 2 * q + 1, 2 * q + 2, 2 * q + 3
        faces.append([a, b, c])
        faces.append([b, d, c])
    return torch.tensor(faces)


if __name__ == "__main__":
    torch.manual_seed(0)
    faces = torch.stack([make_strip_mesh(4), make_strip_mesh(4).flip(0)])
    face_embed = torch.randn(2, faces.shape[1], 32)

    autoencoder = MeshAutoencoder()
    with torch.no_grad():
        averaged = autoencoder.average_face_embed_onto_vertices(faces, face_embed)
        _, codes, commit_loss = autoencoder.quantize(faces, face_embed)
    print("averaged vertex 2, mesh 0:", [round(v, 3) for v in averaged[0, 2].tolist()])
    print("max |averaged vertex feature|:", round(averaged.abs().max().item(), 1))
    print("commit loss:", round(commit_loss.item(), 1))
