# frozen_string_literal: true

require "helper"
require "open3"

# bindings/ruby/example.rb is quoted in the README: check the quote, run that exact file.
class TestExample < QlessTest::Test
  def test_example_runs
    example = File.join(QlessTest::RUBY_DIR, "example.rb")
    readme = File.read(File.expand_path("../../README.md", QlessTest::RUBY_DIR))
    assert_includes readme, "```ruby\n#{File.read(example)}```"
    out, err, status = Open3.capture3({ "QLESS_URL" => QlessTest::URL }, *QlessTest.ruby_command(example))
    assert status.success?, "example failed: #{err}"
    assert_match(/\Apopped Greeter \h{32} with \{"name"=>"world"\}\n\h{32} is complete\n\z/, out)
    jid = out[/\h{32}/]
    assert_equal "hello, world", @client.jobs[jid].data["greeting"]
  end
end

# The other example files, each quoted whole in docs/ruby.md: run that exact file.
class TestDocsExamples < QlessTest::Test
  def run_quoted_example(name)
    example = File.join(QlessTest::RUBY_DIR, name)
    page = File.read(File.expand_path("../../docs/ruby.md", QlessTest::RUBY_DIR))
    assert_includes page, "```ruby\n#{File.read(example)}```"
    out, err, status = Open3.capture3({ "QLESS_URL" => QlessTest::URL }, *QlessTest.ruby_command(example))
    assert status.success?, "example failed: #{err}"
    out
  end

  def test_schedule_example
    out = run_quoted_example("schedule_example.rb")
    assert_equal "true\ninterval Example::Ping\ncron Example::Report\nat Example::Mail\n0 9 * * 1\n", out
  end

  def test_tree_example
    assert_equal "1\n[{\"n\"=>5}]\n[\"consumer\"]\n2\n2\n", run_quoted_example("tree_example.rb")
    assert_nil @client.aliases["nightly"], "the example deletes what it made"
  end
end
