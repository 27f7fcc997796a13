import torch
import torch.nn as nn


class RecSysTask(nn.Module):
    """Masked item modeling + replacement token detection (ELECTRA) over item-id sessions."""

    def __init__(self, num_items, d_model, pad_token=0, mask_prob=0.3):
        super().__init__()
        self.pad_token = pad_token
        self.mask_prob = mask_prob
        self.embedding_table = nn.Embedding(num_items, d_model, padding_idx=pad_token)
        self.input_proj = nn.Linear(d_model, d_model)
        self.generator_head = nn.Linear(d_model, num_items)
        self.discriminator_head = nn.Linear(d_model, 1)
        self.device = "cpu"

    def mask_items(self, itemid_seq):
        """itemid_seq: (bs, seq_len) -> labels (bs, seq_len) with pad_token where not masked."""
        probs = torch.full(itemid_seq.shape, self.mask_prob)
        masked = torch.bernoulli(probs).bool() & (itemid_seq != self.pad_token)
        masked[:, -1] |= itemid_seq[:, -1] != self.pad_token
        return torch.where(masked, itemid_seq, torch.full_like(itemid_seq, self.pad_token))

    def sample_from_softmax(self, logits):
        """
        Sampling method for replacement token modeling (ELECTRA):
        Args:
            logits: of shape (pos_item, vocab_size), mlm probabilities computed by the generator model
        """
        uniform_noise = torch.rand(logits.shape, dtype=torch.float32, device=self.device)
        gumbel_noise = -torch.log(-torch.log(uniform_noise + 1e-9) + 1e-9)
        s = logits + gumbel_noise
        return torch.argmax(torch.nn.functional.softmax(s, dim=-1), -1)

    def get_fake_data(self, emb_inp, target_flat, logits, embedding_table):
        """
        Generate fake data by replacing [MASK] items to train ELECTRA discriminator
        Args:
            emb_inp: (bs, seq_len, embedding_dim) The embeddings of the input items
            target_flat: (bs * seq_len,) The ids of masked items, pad_token elsewhere
            logits: of shape (#pos_item, vocab_size), mlm probabilities of positive items computed by the generator model
            embedding_table: Generator and discriminator shares the same item embedding table
        """
        # Sample random item ids
        updates = self.sample_from_softmax(logits).flatten()
        # Replace only items that were masked during MLM
        non_pad_mask = target_flat != self.pad_token
        corrupted_labels = target_flat.scatter(-1, non_pad_mask.nonzero().flatten(), updates)
        # Build discriminator label : distinguish orginal token from replaced one
        discriminator_labels = (corrupted_labels != target_flat).view(-1, emb_inp.size(1))
        # Build corrupted item embedding input
        emb_updates = embedding_table(updates.long()).to(emb_inp.dtype)
        corrupted_emb_inp = emb_inp.view(-1, emb_inp.size(2))
        corrupted_emb_inp[non_pad_mask.nonzero().flatten(), :] = emb_updates
        return corrupted_emb_inp.view(emb_inp.shape), discriminator_labels

    def forward(self, itemid_seq):
        labels = self.mask_items(itemid_seq)
        emb_inp = self.input_proj(self.embedding_table(itemid_seq))  # (bs, seq_len, d_model)
        target_flat = labels.flatten()
        pos_hidden = emb_inp.view(-1, emb_inp.size(2))[target_flat != self.pad_token]
        logits = self.generator_head(pos_hidden)  # (#pos_item, num_items)
        corrupted, disc_labels = self.get_fake_data(emb_inp, target_flat, logits.detach(), self.embedding_table)
        disc_logits = self.discriminator_head(corrupted).squeeze(-1)
        return nn.functional.binary_cross_entropy_with_logits(disc_logits.float(), disc_labels.float())


if __name__ == "__main__":
    torch.manual_seed(0)
    task = RecSysTask(num_items=120, d_model=16)
    sessions = torch.randint(1, 120, (4, 10))
    sessions[1, 7:] = 0
    sessions[3, 5:] = 0
    with torch.autocast("cpu", dtype=torch.bfloat16):  # mixed-precision training step
        loss = task(sessions)
    assert torch.isfinite(loss)

    # reference: check the corrupted input position by position
    torch.manual_seed(1)
    with torch.autocast("cpu", dtype=torch.bfloat16), torch.no_grad():
        labels = task.mask_items(sessions)
        emb_inp = task.input_proj(task.embedding_table(sessions))
        target_flat = labels.flatten()
        logits = task.generator_head(emb_inp.view(-1, 16)[target_flat != 0])
        original = emb_inp.clone()
        torch.manual_seed(2)
        corrupted, disc = task.get_fake_data(emb_inp, target_flat, logits, task.embedding_table)
        torch.manual_seed(2)
        updates = task.sample_from_softmax(logits).tolist()
    k = 0
    for b in range(sessions.shape[0]):
        for t in range(sessions.shape[1]):
            if labels[b, t] != 0:
                row = task.embedding_table.weight[updates[k]].to(torch.bfloat16)
                assert torch.equal(corrupted[b, t], row)
                assert bool(disc[b, t]) == (updates[k] != labels[b, t].item())
                k += 1
            else:
                assert torch.equal(corrupted[b, t], original[b, t])
                assert not bool(disc[b, t])
    print("ok")
