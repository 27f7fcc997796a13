

def test_the_command_line_leaves_the_collector_as_it_found_it(tmp_path):
    import gc

    from gather_lint import cli

    (tmp_path / "a.py").write_text("x = 1\n")
    before = gc.get_threshold()
    assert cli.main([str(tmp_path / "a.py"), "--no-cache", "--quiet"]) == 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
