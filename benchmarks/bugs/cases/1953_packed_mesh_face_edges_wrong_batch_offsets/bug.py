import torch
from torch import nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence


def derive_face_edges_from_faces(faces, pad_id=-1):
    max_num_faces = faces.shape[1]
    all_edges = torch.stack(torch.meshgrid(
        torch.arange(max_num_faces),
        torch.arange(max_num_faces),
        indexing='ij'), dim=-1)

    face_masks = (faces != pad_id).all(dim=-1)
    face_edges_masks = face_masks.unsqueeze(2) & face_masks.unsqueeze(1)

    face_edges = []
    for face, face_edge_mask in zip(faces, face_edges_masks):
        shared_vertices = face.unsqueeze(1).unsqueeze(3) == face.unsqueeze(0).unsqueeze(2)
        num_shared_vertices = shared_vertices.any(dim=-1).sum(dim=-1)
        is_neighbor_face = (num_shared_vertices >= 2) & face_edge_mask
        face_edges.append(all_edges[is_neighbor_face])

    return pad_sequence(face_edges, padding_value=pad_id, batch_first=True)


class SAGEConv(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.lin_l = nn.Linear(dim_in, dim_out)
        self.lin_r = nn.Linear(dim_in, dim_out, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        messages = x.index_select(0, src)
        summed = torch.zeros_like(x).index_add_(0, dst, messages)
        degree = torch.zeros(x.shape[0]).index_add_(0, dst, torch.ones(dst.shape[0]))
        mean = summed / degree.clamp(min=1).unsqueeze(-1)
        return F.silu(self.lin_l(mean) + self.lin_r(x))


class MeshEncoder(nn.Module):
    def __init__(self, num_discrete_coors=128, dim_coor_embed=16, dims=(64, 64), pad_id=-1):
        super().__init__()
        self.pad_id = pad_id
        self.coor_embed = nn.Embedding(num_discrete_coors, dim_coor_embed)
        self.num_discrete_coors = num_discrete_coors
        init_dim = dim_coor_embed * 9
        self.encoders = nn.ModuleList()
        for dim_in, dim_out in zip((init_dim,) + dims[:-1], dims):
            self.encoders.append(SAGEConv(dim_in, dim_out))

    def embed_faces(self, vertices, faces, face_mask):
        batch, num_faces, _ = faces.shape
        discrete = (vertices.clamp(-1, 1) * 0.5 + 0.5) * (self.num_discrete_coors - 1)
        discrete = discrete.round().long()
        safe_faces = faces.masked_fill(~face_mask.unsqueeze(-1), 0)
        faces_vertices = safe_faces.unsqueeze(-1).expand(-1, -1, -1, 3)
        discrete = discrete.unsqueeze(1).expand(-1, num_faces, -1, -1)
        face_coords = discrete.gather(-2, faces_vertices)
        face_embed = self.coor_embed(face_coords)
        return face_embed.reshape(batch, num_faces, -1)

    def forward(self, vertices, faces, face_edges):
        batch = faces.shape[0]
        face_mask = (faces != self.pad_id).all(dim=-1)
        face_edges_mask = (face_edges != self.pad_id).all(dim=-1)

        face_embed = self.embed_faces(vertices, faces, face_mask)

        # first handle edges
        # needs to be offset by number of faces for each batch

        face_index_offsets = face_mask.long().sum(dim=-1).reshape(batch, 1, 1)
        face_edges = face_edges + face_index_offsets
        face_edges = face_edges[face_edges_mask]
        face_edges = face_edges.t()

        orig_face_embed_shape = face_embed.shape[:2]
        face_embed = face_embed[face_mask]

        for conv in self.encoders:
            face_embed = conv(face_embed, face_edges)

        out = torch.zeros(*orig_face_embed_shape, face_embed.shape[-1])
        out[face_mask] = face_embed
        return out


def grid_mesh(rows, cols, num_faces, pad_to, pad_id=-1):
    verts = torch.stack(torch.meshgrid(
        torch.linspace(-1, 1, rows), torch.linspace(-1, 1, cols), indexing='ij'), dim=-1)
    verts = torch.cat([verts.reshape(-1, 2), torch.zeros(rows * cols, 1)], dim=-1)
    faces = []
    for r in range(rows - 1):
        for c in range(cols - 1):
            a, b = r * cols + c, r * cols + c + 1
            d, e = a + cols, b + cols
            faces += [[a, b, d], [b, e, d]]
    faces = torch.tensor(faces[:num_faces])
    faces = torch.cat([faces, torch.full((pad_to - num_faces, 3), pad_id)], dim=0)
    return verts, faces


if __name__ == "__main__":
    torch.manual_seed(0)
    v0, f0 = grid_mesh(3, 3, num_faces=5, pad_to=7)
    v1, f1 = grid_mesh(3, 3, num_faces=7, pad_to=7)
    vertices = torch.stack([v0, v1])
    faces = torch.stack([f0, f1])
    face_edges = derive_face_edges_from_faces(faces)

    encoder = MeshEncoder()
    encoded = encoder(vertices, faces, face_edges)
    print("encoded faces:", tuple(encoded.shape))
