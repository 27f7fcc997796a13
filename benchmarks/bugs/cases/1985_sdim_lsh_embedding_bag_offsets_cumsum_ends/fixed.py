import torch
import torch.nn as nn
import torch.nn.functional as F


class SDIM(nn.Module):
    """Sampling-based Deep Interest Modeling: long user behaviour sequences are summarized by
    SimHash collisions with the target item instead of target attention."""

    def __init__(self, num_items, embedding_dim=8, num_hashes=2, hash_bits=2, reuse_hash=True):
        super().__init__()
        self.item_embedding = nn.Embedding(num_items, embedding_dim, padding_idx=0)
        self.num_hashes = num_hashes
        self.hash_bits = hash_bits
        self.reuse_hash = reuse_hash
        self.register_buffer("powers_of_two", torch.tensor([2.0 ** i for i in range(hash_bits)]))
        self.random_rotations = nn.Parameter(torch.randn(embedding_dim, num_hashes, hash_bits),
                                             requires_grad=False)
        self.dnn = nn.Linear(2 * embedding_dim, 1)

    def forward(self, target_item_id, history_item_ids):
        target_emb = self.item_embedding(target_item_id)        # B x d
        sequence_emb = self.item_embedding(history_item_ids)    # B x seq_len x d
        mask = history_item_ids.long() != 0  # padding_idx = 0 required in input data
        long_interest_emb = self.lsh_attentioin(self.random_rotations, target_emb, sequence_emb, mask)
        return torch.sigmoid(self.dnn(torch.cat([target_emb, long_interest_emb], dim=-1))), long_interest_emb

    def lsh_attentioin(self, random_rotations, target_item, history_sequence, mask):
        if not self.reuse_hash:
            random_rotations = torch.randn(target_item.size(1), self.num_hashes,
                                           self.hash_bits, device=target_item.device)
        sequence_bucket = self.lsh_hash(history_sequence, random_rotations)
        target_bucket = self.lsh_hash(target_item.unsqueeze(1), random_rotations)
        bucket_match = (sequence_bucket - target_bucket).permute(2, 0, 1)  # num_hashes x B x seq_len
        collide_mask = ((bucket_match == 0) * mask.unsqueeze(0)).float()  # hash collision and sequence mask
        hash_index, collide_index = torch.nonzero(collide_mask.flatten(start_dim=1), as_tuple=True)
        offsets = collide_mask.sum(dim=-1).flatten().cumsum(dim=0)
        offsets = torch.cat([torch.zeros(1, device=offsets.device), offsets]).long()
        attn_out = F.embedding_bag(collide_index, history_sequence.view(-1, target_item.size(1)),
                                   offsets, mode='sum', include_last_offset=True)  # (num_hashes x B) x d
        attn_out = attn_out.view(self.num_hashes, -1, target_item.size(1)).mean(dim=0)  # B x d
        return attn_out

    def lsh_hash(self, vecs, random_rotations):
        # vecs: B x seq_len x d -> hash_bucket: B x seq_len x num_hashes
        rotated_vecs = torch.einsum("bld,dht->blht", vecs, random_rotations)  # B x seq_len x num_hashes x hash_bits
        hash_code = torch.relu(torch.sign(rotated_vecs))
        hash_bucket = torch.matmul(hash_code, self.powers_of_two.unsqueeze(-1)).squeeze(-1)
        return hash_bucket


if __name__ == "__main__":
    torch.manual_seed(3)
    model = SDIM(num_items=50)
    model.eval()
    target_item_id = torch.tensor([7, 21])                      # B
    history_item_ids = torch.tensor([[3, 9, 7, 12, 40, 0],      # B x seq_len, 0 = padding
                                     [21, 5, 33, 8, 0, 0]])
    with torch.no_grad():
        ctr, interest = model(target_item_id, history_item_ids)
        # reference: for every hash and user, sum the non-padding behaviours that share the
        # target's bucket, then average over the hashes
        target_emb = model.item_embedding(target_item_id)
        sequence_emb = model.item_embedding(history_item_ids)
        seq_bucket = model.lsh_hash(sequence_emb, model.random_rotations)
        tgt_bucket = model.lsh_hash(target_emb.unsqueeze(1), model.random_rotations)
        for b in range(history_item_ids.size(0)):
            expected = torch.zeros(target_emb.size(1))
            for h in range(model.num_hashes):
                for l in range(history_item_ids.size(1)):
                    if history_item_ids[b, l] != 0 and seq_bucket[b, l, h] == tgt_bucket[b, 0, h]:
                        expected += sequence_emb[b, l] / model.num_hashes
            assert torch.allclose(interest[b], expected, atol=1e-6), b
    print("ok")
