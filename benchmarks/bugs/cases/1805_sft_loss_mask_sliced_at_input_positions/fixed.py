import torch
import torch.nn.functional as F


def build_batch(prompt_lens, response_lens, vocab_size, seq_len, pad_id=0):
    bsz = len(prompt_lens)
    input_ids = torch.full((bsz, seq_len), pad_id, dtype=torch.long)  # (bsz, seqlen)
    loss_mask = torch.zeros(bsz, seq_len, dtype=torch.long)  # (bsz, seqlen), 1 on response tokens
    for i, (p, r) in enumerate(zip(prompt_lens, response_lens)):
        input_ids[i, : p + r] = torch.randint(1, vocab_size, (p + r,))
        loss_mask[i, p : p + r] = 1
    return {"input_ids": input_ids, "loss_mask": loss_mask}


def response_logps(logits, batch):
    input_ids = batch["input_ids"]  # (bsz, seqlen)
    log_probs = F.log_softmax(logits[:, :-1, :], dim=-1)  # (bsz, seqlen - 1, vocab)
    labels = input_ids[:, 1:]  # (bsz, seqlen - 1), token t + 1 is predicted at position t
    token_logps = log_probs.gather(-1, labels.unsqueeze(-1)).squeeze(-1)  # (bsz, seqlen - 1)
    loss_mask = batch["loss_mask"][:, 1:].bool()  # (bsz, seqlen - 1)
    selected = token_logps[loss_mask]  # (num_response_tokens,)
    counts = loss_mask.sum(dim=1).tolist()
    return torch.stack([chunk.sum() for chunk in selected.split(counts)])  # (bsz,)


if __name__ == "__main__":
    torch.manual_seed(0)
    bsz, seq_len, vocab = 3, 16, 50
    batch = build_batch([4, 6, 3], [5, 7, 9], vocab, seq_len)
    logits = torch.randn(bsz, seq_len, vocab)  # (bsz, seqlen, vocab)
    got = response_logps(logits, batch)
    lp = F.log_softmax(logits, dim=-1)
    ref = torch.zeros(bsz)
    for i in range(bsz):
        for t in range(1, seq_len):
            if batch["loss_mask"][i, t]:
                ref[i] += lp[i, t - 1, batch["input_ids"][i, t]]
    assert torch.allclose(got, ref, atol=1e-5)
    print("ok")
