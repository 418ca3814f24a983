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
