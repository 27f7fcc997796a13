import torch


def beam_step(alive_seq, topk_log_probs, log_probs, beam_size, batch_offset):
    # alive_seq:      [B * K, T]   decoded prefixes
    # topk_log_probs: [B * K]      running scores
    # log_probs:      [B * K, V]   next-token log-probs
    vocab_size = log_probs.size(-1)
    scores = (log_probs + topk_log_probs.view(-1, 1)).view(-1, beam_size * vocab_size)  # [B, K * V]
    topk_scores, topk_ids = scores.topk(beam_size, dim=-1)  # [B, K]

    topk_beam_index = topk_ids / vocab_size  # [B, K] parent beam
    topk_ids = topk_ids.fmod(vocab_size)  # [B, K] token id

    batch_index = topk_beam_index + batch_offset[: topk_beam_index.size(0)].unsqueeze(1)  # [B, K]
    select_indices = batch_index.view(-1)  # [B * K]

    alive_seq = torch.cat(
        [alive_seq.index_select(0, select_indices), topk_ids.view(-1, 1)], -1
    )  # [B * K, T + 1]
    return alive_seq, topk_scores.view(-1)


def main():
    torch.manual_seed(0)
    batch, beam, vocab = 3, 4, 11
    alive = torch.randint(0, vocab, (batch * beam, 5))
    running = torch.randn(batch * beam)
    logp = torch.randn(batch * beam, vocab).log_softmax(-1)
    offset = torch.arange(0, batch * beam, step=beam)
    new_alive, new_scores = beam_step(alive, running, logp, beam, offset)
    print(new_alive.shape, new_scores[:4])


if __name__ == "__main__":
    main()
