# frozen_string_literal: true

require "helper"
require "open3"

# bindings/ruby/example.rb is quoted in the README: run that exact file.
class TestExample < QlessTest::Test
  def test_example_runs
    example = File.join(QlessTest::RUBY_DIR, "example.rb")
    out, err, status = Open3.capture3({ "QLESS_URL" => QlessTest::URL }, *QlessTest.ruby_command(example))
    assert status.success?, "example failed: #{err}"
    assert_match(/\Apopped Greeter \h{32} with \{"name"=>"world"\}\n\h{32} is complete\n\z/, out)
    jid = out[/\h{32}/]
    assert_equal "hello, world", @client.jobs[jid].data["greeting"]
  end
end

# bindings/ruby/schedule_example.rb likewise, and the README quotes it whole.
class TestScheduleExample < QlessTest::Test
  def test_schedule_example_runs_and_is_the_one_in_the_readme
    example = File.join(QlessTest::RUBY_DIR, "schedule_example.rb")
    readme = File.read(File.expand_path("../../README.md", QlessTest::RUBY_DIR))
    assert_includes readme, "```ruby\n#{File.read(example)}```"
    out, err, status = Open3.capture3({ "QLESS_URL" => QlessTest::URL }, *QlessTest.ruby_command(example))
    assert status.success?, "example failed: #{err}"
    assert_equal "true\ninterval Example::Ping\ncron Example::Report\nat Example::Mail\n0 9 * * 1\n", out
  end
end

# bindings/ruby/tree_example.rb likewise (job trees), quoted whole in the README.
class TestTreeExample < QlessTest::Test
  def test_tree_example_runs_and_is_the_one_in_the_readme
    example = File.join(QlessTest::RUBY_DIR, "tree_example.rb")
    readme = File.read(File.expand_path("../../README.md", QlessTest::RUBY_DIR))
    assert_includes readme, "```ruby\n#{File.read(example)}```"
    out, err, status = Open3.capture3({ "QLESS_URL" => QlessTest::URL }, *QlessTest.ruby_command(example))
    assert status.success?, "example failed: #{err}"
    assert_equal "1\n[{\"n\"=>5}]\n[\"consumer\"]\n2\n2\n", out
    assert_nil @client.aliases["nightly"], "the example deletes what it made"
  end
end
